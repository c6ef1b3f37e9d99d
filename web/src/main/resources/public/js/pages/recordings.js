// Recordings page: Lucene search with facets, the list (newest first), upload with progress, delete,
// and picking two recordings to diff.

import { el, clear, formatBytes, formatDate, formatDuration, labelChips, toast } from '../core/dom.js';
import { api, upload } from '../core/api.js';
import * as state from '../core/state.js';
import { KIND_LABELS, kindsOf, link, loading, onLeave } from './common.js';

const FACET_FIELDS = { labels: ['Labels', 'label'], jvm: ['Java', 'java'], kinds: ['Kinds', 'kind'] };

export async function mount(root, st, lifetime) {
  const search = el('input', { type: 'search', id: 'recordings-search', class: 'search wide', spellcheck: 'false',
    placeholder: 'Search recordings: name, label:service=checkout, java:25, kind:alloc, method:HashMap  (/)',
    'aria-label': 'Search recordings (Lucene query syntax)' });
  search.addEventListener('keydown', e => {
    if (e.key === 'Enter') state.update({ q: search.value.trim() || undefined });
    if (e.key === 'Escape' && search.value) { search.value = ''; state.update({ q: undefined }); }
  });
  const facets = el('aside', { class: 'facets', 'aria-label': 'Facets' });
  const list = el('div', { class: 'recording-list' });
  const compare = el('button', { type: 'button', class: 'button primary', id: 'compare', disabled: true, text: 'Tick two to compare' });
  const picked = [];
  const when = new Map();
  compare.addEventListener('click', () => {
    if (picked.length !== 2) return;
    // the older recording is the baseline
    const [base, target] = [...picked].sort((a, b) => (when.get(a) || 0) - (when.get(b) || 0));
    state.update({ page: 'diff', base, id: target }, { reset: true });
  });
  // an upload that ends after the user left the page does not redraw it
  const dropzone = uploadBox(() => { if (!lifetime.aborted) refresh(state.readState()); });
  const timers = new Set(); // the delete buttons' confirm windows
  root.append(
    el('header', { class: 'page-head' }, el('div', {}, el('h1', { class: 'title', text: 'Recordings' }),
      el('p', { class: 'facts', text: 'Upload JFR recordings (.jfr, .jfr.gz, .zip) or collapsed stacks, then open, search and diff them.' }))),
    dropzone,
    el('div', { class: 'search-row' }, search, el('button', { type: 'button', class: 'button', text: 'Search',
      onclick: () => state.update({ q: search.value.trim() || undefined }) }), compare),
    el('div', { class: 'recordings-grid' }, facets, list));

  let seq = 0;
  onLeave(lifetime, () => {
    seq++;
    for (const t of timers) clearTimeout(t);
  });
  async function refresh(s) {
    search.value = s.q || '';
    const mine = ++seq;
    if (!list.firstChild) list.appendChild(loading());
    let result;
    try { result = await api.list(s.q); } catch (e) {
      if (mine !== seq) return;
      clear(list).appendChild(el('p', { class: 'error-box', role: 'alert', text: 'Search failed: ' + e.message }));
      return;
    }
    if (mine !== seq) return;
    drawFacets(facets, result.facets || {}, s.q);
    for (const r of result.recordings || []) when.set(r.id, r.startMillis || r.uploadedMillis || 0);
    drawList(list, result, picked, compare, () => refresh(state.readState()), timers);
  }
  await refresh(st);
  return { update: refresh };
}

function drawFacets(box, facets, q) {
  clear(box);
  for (const [key, [title, field]] of Object.entries(FACET_FIELDS)) {
    const values = Object.entries(facets[key] || {}).sort((a, b) => b[1] - a[1]).slice(0, 20);
    if (!values.length) continue;
    const ul = el('ul');
    for (const [value, count] of values) {
      const clause = `${field}:"${value.replace(/["\\]/g, '\\$&')}"`;
      const active = (q || '').includes(clause);
      const next = active ? (q || '').replace(clause, '').replace(/\s+AND\s*$|^\s*AND\s+/g, '').trim() : (q ? `${q} AND ${clause}` : clause);
      ul.appendChild(el('li', {}, el('button', { type: 'button', class: 'facet' + (active ? ' active' : ''), 'aria-pressed': active ? 'true' : 'false',
        onclick: () => state.update({ q: next || undefined }) },
        el('span', { text: key === 'kinds' ? (KIND_LABELS[value] || value) : key === 'jvm' ? 'Java ' + value : value }), el('small', { text: String(count) }))));
    }
    box.append(el('h3', { text: title }), ul);
  }
  if (!box.firstChild) box.appendChild(el('p', { class: 'hint', text: 'Facets appear once recordings are uploaded.' }));
}

function drawList(box, result, picked, compare, reload, timers) {
  clear(box);
  const recordings = result.recordings || [];
  const total = result.total ?? recordings.length;
  box.appendChild(el('p', { class: 'count', id: 'recordings-count', text: `${total} recording${total === 1 ? '' : 's'}` }));
  if (total > recordings.length) box.appendChild(el('p', { class: 'hint', text: `Showing the newest ${recordings.length}; refine the search to see others.` }));
  if (!recordings.length) { box.appendChild(el('p', { class: 'hint', text: 'No recordings match. Upload one above, or clear the search.' })); return; }
  const syncCompare = () => {
    compare.disabled = picked.length !== 2;
    compare.textContent = picked.length === 2 ? 'Compare selected' : `Tick two to compare (${picked.length}/2)`;
  };
  const body = el('tbody');
  for (const r of recordings) {
    const pick = el('input', { type: 'checkbox', class: 'pick', 'aria-label': 'Select ' + (r.name || r.id) + ' for diff', checked: picked.includes(r.id) });
    pick.addEventListener('change', () => {
      const at = picked.indexOf(r.id);
      if (pick.checked && at < 0) { picked.push(r.id); if (picked.length > 2) picked.shift(); }
      if (!pick.checked && at >= 0) picked.splice(at, 1);
      for (const other of body.querySelectorAll('input.pick')) other.checked = picked.includes(other.dataset.id);
      syncCompare();
    });
    pick.dataset.id = r.id;
    const del = el('button', { type: 'button', class: 'button small danger', text: 'Delete', 'aria-label': 'Delete ' + (r.name || r.id) });
    let armed = 0;
    del.addEventListener('click', async () => {
      if (!armed) {
        del.textContent = 'Confirm';
        armed = setTimeout(() => { timers.delete(armed); armed = 0; del.textContent = 'Delete'; }, 4000);
        timers.add(armed);
        return;
      }
      clearTimeout(armed);
      timers.delete(armed);
      try { await api.remove(r.id); toast('Deleted ' + (r.name || r.id)); reload(); } catch (e) { toast(e.message, true); }
    });
    body.appendChild(el('tr', { dataset: { id: r.id } },
      el('td', {}, pick),
      el('td', { class: 'name' }, link(r.name || r.id, { page: 'recording', id: r.id, kind: kindsOf(r)[0] }, { class: 'title-link' }), el('div', { class: 'chips' }, labelChips(r.labels))),
      el('td', { text: formatDate(r.startMillis || r.uploadedMillis) }),
      el('td', { class: 'num', text: r.durationMillis ? formatDuration(r.durationMillis) : '' }),
      el('td', {}, kindsOf(r).map(k => el('span', { class: 'kind kind-' + k, text: KIND_LABELS[k] || k }))),
      el('td', { class: 'num', text: r.sizeBytes ? formatBytes(r.sizeBytes) : '' }),
      el('td', {}, del)));
  }
  box.appendChild(el('table', { class: 'data recordings', id: 'recordings' },
    el('thead', {}, el('tr', {}, el('th', { text: '', 'aria-label': 'Select' }), el('th', { text: 'Name' }), el('th', { text: 'Recorded' }),
      el('th', { class: 'num', text: 'Duration' }), el('th', { text: 'Kinds' }), el('th', { class: 'num', text: 'Size' }), el('th', { text: '' }))),
    body));
  syncCompare();
}

function uploadBox(onDone) {
  const input = el('input', { type: 'file', id: 'file-input', multiple: true, class: 'visually-hidden',
    accept: '.jfr,.gz,.zip,.txt,.collapsed,application/octet-stream,text/plain' });
  const labels = el('input', { type: 'text', id: 'upload-labels', class: 'labels-input', placeholder: 'labels, e.g. service=checkout,env=prod',
    'aria-label': 'Labels for the upload (k=v,k=v)' });
  const progressList = el('ul', { class: 'uploads', id: 'uploads', 'aria-live': 'polite' });
  const pickButton = el('button', { type: 'button', class: 'button primary', id: 'upload-button', text: 'Choose files\u2026', onclick: () => input.click() });
  const zone = el('section', { class: 'dropzone', id: 'dropzone', 'aria-label': 'Upload recordings' },
    el('div', { class: 'drop-text' }, el('strong', { text: 'Drop recordings here' }), ' or ', pickButton),
    labels, input, progressList);
  const start = files => {
    for (const file of files) send(file);
  };
  const send = async file => {
    const bar = el('progress', { max: '1', value: '0' });
    const status = el('span', { class: 'upload-status', text: 'uploading\u2026' });
    const item = el('li', {}, el('span', { class: 'upload-name', text: file.name }), bar, status);
    progressList.prepend(item);
    try {
      const rec = await upload(file, { labels: labels.value.trim() || undefined, onProgress: f => { bar.value = f; status.textContent = Math.round(f * 100) + '%'; } });
      bar.value = 1;
      item.classList.add('done');
      clear(status).appendChild(link('Open ' + (rec.name || rec.id), { page: 'recording', id: rec.id, kind: kindsOf(rec)[0] }));
      onDone();
    } catch (e) {
      item.classList.add('failed');
      status.textContent = 'Failed: ' + e.message;
      status.setAttribute('role', 'alert');
    }
  };
  input.addEventListener('change', () => { start([...input.files]); input.value = ''; });
  zone.addEventListener('dragover', e => { e.preventDefault(); zone.classList.add('over'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', e => { e.preventDefault(); zone.classList.remove('over'); start([...e.dataTransfer.files]); });
  return zone;
}
