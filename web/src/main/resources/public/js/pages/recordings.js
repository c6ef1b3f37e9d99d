// Recordings page: Lucene search with facets, the list (newest first), upload with progress, delete,
// and picking two recordings to diff.

import { el, clear, formatBytes, formatDate, formatDuration, formatPercent, labelChips, toast } from '../core/dom.js';
import { api, upload } from '../core/api.js';
import * as state from '../core/state.js';
import { KIND_LABELS, kindsOf, link, loading, onLeave, runText } from './common.js';

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
    let result, hits;
    const methods = methodClauses(s.q);
    try {
      [result, hits] = await Promise.all([api.list(s.q), methods ? api.methodSearch(methods).catch(() => null) : null]);
    } catch (e) {
      if (mine !== seq) return;
      // the facets of the last good search would describe recordings no longer listed
      drawFacets(facets, {}, s.q, 'No facets while the search cannot be read.');
      clear(list).appendChild(searchError(e, s.q));
      return;
    }
    if (mine !== seq) return;
    drawFacets(facets, result.facets || {}, s.q);
    for (const r of result.recordings || []) when.set(r.id, r.startMillis || r.uploadedMillis || 0);
    drawList(list, result, picked, compare, () => refresh(state.readState()), timers, hitsByRecording(hits));
  }
  await refresh(st);
  return { update: refresh };
}

function drawFacets(box, facets, q, emptyText = 'Facets appear once recordings are uploaded.') {
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
        el('span', { text: key === 'kinds' ? (KIND_LABELS[value] || value) : key === 'jvm' ? 'Java ' + value : value }), el('small', { text: String(count) })),
        // a label's recordings as runs of one service on a time axis
        key === 'labels' ? link('over time', { page: 'service', q: clause }, { class: 'facet-time', dataset: { label: value },
          title: `The runs labelled ${value} on one time axis` }) : null));
    }
    box.append(el('h3', { text: title }), ul);
  }
  if (!box.firstChild) box.appendChild(el('p', { class: 'hint', text: emptyText }));
}

/**
 * A failed search in words a user can act on: what is wrong with the query (the parser's message without its
 * grammar jargon) and examples of the syntax. 4xx: the query; else the server.
 */
function searchError(e, q) {
  if (e.status !== 400) return el('p', { class: 'error-box', role: 'alert', text: 'Search failed: ' + e.message });
  const raw = String(e.message || '');
  const where = /column (\d+)/.exec(raw);
  let why = 'it is not valid query syntax';
  if (/Lexical error|EOF/.test(raw) && /"/.test(q || '') && ((q.match(/"/g) || []).length % 2)) why = 'a quote is not closed';
  else if (/\(/.test(q || '') && (q.match(/\(/g) || []).length !== (q.match(/\)/g) || []).length) why = 'its parentheses do not pair up';
  else if (/Encountered "<EOF>"/.test(raw)) why = 'it ends where a word or value is still expected';
  else if (/^\s*(AND|OR|NOT)\b|\b(AND|OR|NOT)\s*$/.test(q || '')) why = 'AND, OR and NOT need a term on each side';
  else if (/too|bound|long|many/i.test(raw)) why = raw.replace(/^cannot parse query '.*?':\s*/, '');
  return el('div', { class: 'error-box search-error', role: 'alert', id: 'search-error' },
    el('strong', { text: 'This search cannot be read: ' + why + (where ? ` (at character ${where[1]})` : '') + '.' }),
    el('p', { class: 'hint', text: 'Examples: checkout-after \u00b7 label:service=checkout \u00b7 java:21 \u00b7 kind:alloc \u00b7 method:HashMap.resize \u00b7 "exact phrase". Put a value with spaces or : in quotes.' }),
    el('details', {}, el('summary', { text: 'The parser\u2019s message' }), el('code', { text: raw })));
}

/** The method: and methodpart: clauses of a recordings query, for /api/search; null when it has none. */
export function methodClauses(q) {
  if (!q) return null;
  const found = q.match(/\bmethod(part)?:("(?:[^"\\]|\\.)*"|[^\s()]+)/g);
  return found ? found.join(' ') : null;
}

/** The best method hits per recording (largest share first), from /api/search. */
function hitsByRecording(result) {
  const by = new Map();
  for (const h of (result && result.hits) || []) {
    const list = by.get(h.recording.id) || [];
    list.push(h);
    by.set(h.recording.id, list);
  }
  return by;
}

/** "java.util.HashMap.resize: 5.80 % of CPU (total), 2.00 % self", linking to the graph with that method searched. */
function methodHits(r, hits) {
  if (!hits || !hits.length) return null;
  const shown = hits.slice(0, 3);
  return el('ul', { class: 'method-hits' }, shown.map(h => el('li', { class: 'method-hit' },
    link(h.method, { page: 'recording', id: r.id, kind: h.kind, search: exactFrame(h.method) }, { class: 'hit-method', title: 'Open the ' + (KIND_LABELS[h.kind] || h.kind) + ' graph with this method highlighted' }),
    el('span', { class: 'hit-share', text: ` ${formatPercent(h.totalShare)} of ${KIND_LABELS[h.kind] || h.kind}` + (h.selfShare ? `, ${formatPercent(h.selfShare)} self` : '') }))),
    hits.length > shown.length ? el('li', { class: 'hint', text: `and ${hits.length - shown.length} more` }) : null);
}

/** A flame graph search for exactly one frame name. */
function exactFrame(name) {
  return '^' + name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$';
}

function drawList(box, result, picked, compare, reload, timers, hits) {
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
      el('td', { class: 'name' }, link(r.name || r.id, openView(r, hits && hits.get(r.id)), { class: 'title-link' }),
        r.run ? el('span', { class: 'run-state' + (r.ended ? '' : ' growing'), text: runText(r), title: 'Run ' + r.run }) : null,
        el('div', { class: 'chips' }, labelChips(r.labels)), methodHits(r, hits && hits.get(r.id))),
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

/** Where a listed recording opens: its first kind, or the kind and search of its best method hit. */
function openView(r, hits) {
  const best = hits && hits[0];
  return best ? { page: 'recording', id: r.id, kind: best.kind, search: exactFrame(best.method) }
    : { page: 'recording', id: r.id, kind: kindsOf(r)[0] };
}

/** A run's parts are appended as JFR chunks: a .gz file is decompressed here first (the name loses its .gz). */
async function plainJfr(file) {
  if (!/\.gz$/i.test(file.name) || typeof DecompressionStream !== 'function') return file;
  const blob = await new Response(file.stream().pipeThrough(new DecompressionStream('gzip'))).blob();
  return new File([blob], file.name.replace(/\.gz$/i, ''));
}

function uploadBox(onDone) {
  const input = el('input', { type: 'file', id: 'file-input', multiple: true, class: 'visually-hidden',
    accept: '.jfr,.gz,.zip,.txt,.collapsed,application/octet-stream,text/plain' });
  const labels = el('input', { type: 'text', id: 'upload-labels', class: 'labels-input', placeholder: 'labels, e.g. service=checkout,env=prod',
    'aria-label': 'Labels for the upload (k=v,k=v)' });
  const progressList = el('ul', { class: 'uploads', id: 'uploads', 'aria-live': 'polite' });
  const pickButton = el('button', { type: 'button', class: 'button primary', id: 'upload-button', text: 'Choose files\u2026', onclick: () => input.click() });
  const combine = el('input', { type: 'checkbox', id: 'upload-combine' });
  const combineLabel = el('label', { class: 'toggle', title: 'Several .jfr files of one run (rotated chunk files, JFR.dump parts) become its parts, in the order of their names' },
    combine, ' Combine into one recording');
  const zone = el('section', { class: 'dropzone', id: 'dropzone', 'aria-label': 'Upload recordings' },
    el('div', { class: 'drop-text' }, el('strong', { text: 'Drop recordings here' }), ' or ', pickButton),
    labels, combineLabel, input, progressList);
  const start = files => {
    if (combine.checked && files.length > 1) sendRun(files);
    else for (const file of files) send(file);
  };
  /** One upload's row in the progress list: its name, bar and status, and what to call as it goes. */
  const row = file => {
    const bar = el('progress', { max: '1', value: '0' });
    const status = el('span', { class: 'upload-status', text: 'uploading\u2026' });
    const item = el('li', {}, el('span', { class: 'upload-name', text: file.name }), bar, status);
    progressList.prepend(item);
    return { bar, status, item,
      onProgress: f => { bar.value = f; status.textContent = Math.round(f * 100) + '%'; },
      // every byte is sent; the server now reads the whole recording, which takes a while for a large one
      onSent: () => {
        bar.removeAttribute('value');
        item.classList.add('processing');
        status.textContent = 'Processing on the server\u2026';
      },
      done: () => { bar.value = 1; item.classList.remove('processing'); item.classList.add('done'); },
      failed: e => {
        item.classList.remove('processing');
        item.classList.add('failed');
        status.textContent = 'Failed: ' + e.message;
        status.setAttribute('role', 'alert');
      } };
  };
  const send = async file => {
    const r = row(file);
    try {
      const { recording: rec, created } = await upload(file, { labels: labels.value.trim() || undefined,
        onProgress: r.onProgress, onSent: r.onSent });
      r.done();
      const open = link('Open ' + (rec.name || rec.id), { page: 'recording', id: rec.id, kind: kindsOf(rec)[0] });
      clear(r.status).append(created ? '' : el('span', { class: 'already', text: 'Already uploaded: these bytes are stored as ' + (rec.name || rec.id) + '. ' }), open);
      if (!created) r.item.classList.add('duplicate');
      onDone();
    } catch (e) {
      r.failed(e);
    }
  };
  /**
   * The files as the parts of one new run, in the order of their names (numbers in names compare as numbers:
   * part-2 before part-10), one after the other; the last marks the run ended. A part that fails stops the rest.
   */
  const sendRun = async files => {
    const ordered = [...files].sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
    const bytes = crypto.getRandomValues(new Uint8Array(12));
    const run = 'browser-' + [...bytes].map(b => b.toString(16).padStart(2, '0')).join('');
    const rows = ordered.map(row);
    let rec = null;
    for (let i = 0; i < ordered.length; i++) {
      const r = rows[i];
      r.status.textContent = `part ${i + 1} of ${ordered.length}: waiting\u2026`;
    }
    for (let i = 0; i < ordered.length; i++) {
      const r = rows[i];
      try {
        ({ recording: rec } = await upload(await plainJfr(ordered[i]), { labels: labels.value.trim() || undefined, name: ordered[0].name,
          run, chunk: i, last: i === ordered.length - 1, onProgress: r.onProgress, onSent: r.onSent }));
        r.done();
        r.status.textContent = `part ${i + 1} of ${ordered.length}`;
      } catch (e) {
        r.failed(e);
        for (const rest of rows.slice(i + 1)) rest.failed(new Error('not sent: an earlier part failed'));
        break;
      }
    }
    if (rec) {
      clear(rows[rows.length - 1].status).append(`${rec.parts} part${rec.parts === 1 ? '' : 's'} in one recording. `,
        link('Open ' + (rec.name || rec.id), { page: 'recording', id: rec.id, kind: kindsOf(rec)[0] }));
      onDone();
    }
  };
  input.addEventListener('change', () => { start([...input.files]); input.value = ''; });
  zone.addEventListener('dragover', e => { e.preventDefault(); zone.classList.add('over'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', e => { e.preventDefault(); zone.classList.remove('over'); start([...e.dataTransfer.files]); });
  return zone;
}
