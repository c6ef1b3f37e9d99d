// "Compare with…" on the recording page: pick another recording (by default those sharing this one's service
// label) and open the diff with this recording as the target or as the baseline.

import { el, clear, formatDate, labelChips } from '../core/dom.js';
import { api } from '../core/api.js';
import * as state from '../core/state.js';

/** The Lucene query for "recordings like this one": same service (or app) label when it has one. */
export function similarQuery(recording) {
  const labels = recording.labels || {};
  for (const key of ['service', 'app', 'application']) {
    if (labels[key]) return `label:"${key}=${labels[key].replace(/["\\]/g, '\\$&')}"`;
  }
  return '';
}

/**
 * A menu button ({root}); kindOf() gives the kind the diff opens with (the one shown on the page); view(base, target),
 * when given, gives the address of another comparison instead (the heap page's heap diff). destroy() drops a pending
 * search.
 */
export function comparePicker(recording, kindOf, view) {
  const summary = el('summary', { class: 'button', id: 'compare-button', text: 'Compare with\u2026' });
  const filter = el('input', { type: 'search', class: 'compare-filter', id: 'compare-search', spellcheck: 'false',
    placeholder: 'Search recordings (Lucene syntax)', 'aria-label': 'Search recordings to compare with' });
  filter.value = similarQuery(recording);
  const info = el('p', { class: 'hint compare-info', 'aria-live': 'polite' });
  const list = el('ul', { class: 'compare-list', id: 'compare-list', 'aria-label': 'Recordings to compare with' });
  const root = el('details', { class: 'menu compare', id: 'compare' }, summary,
    el('div', { class: 'menu-items wide compare-items' }, filter, info, list));

  const open = (base, target) => {
    root.open = false;
    state.update(view ? view(base, target) : { page: 'diff', base, id: target, kind: kindOf() }, { reset: true });
  };
  let seq = 0, loaded = null;
  async function load() {
    const q = filter.value.trim();
    if (q === loaded) return;
    loaded = q;
    const mine = ++seq;
    info.textContent = 'Loading\u2026';
    let result;
    try { result = await api.list(q || undefined, 50); } catch (e) {
      if (mine === seq) { info.textContent = 'Search failed: ' + e.message; clear(list); loaded = null; }
      return;
    }
    if (mine !== seq) return;
    const others = (result.recordings || []).filter(r => r.id !== recording.id);
    info.textContent = others.length ? (q ? `Recordings matching ${q}` : 'All recordings, newest first')
      : q ? 'No other recording matches; clear the search to see all.' : 'No other recording yet.';
    clear(list);
    for (const r of others) {
      const name = r.name || r.id;
      list.appendChild(el('li', { class: 'compare-item', dataset: { id: r.id } },
        el('div', { class: 'compare-name' }, el('span', { class: 'title-text', text: name, title: name }),
          el('small', { text: formatDate(r.startMillis || r.uploadedMillis) }), el('div', { class: 'chips' }, labelChips(r.labels))),
        el('div', { class: 'compare-actions' },
          el('button', { type: 'button', class: 'button small as-baseline', text: 'as baseline',
            title: `Diff: ${name} \u2192 this recording`, 'aria-label': `Compare: ${name} as baseline, this recording as target`,
            onclick: () => open(r.id, recording.id) }),
          el('button', { type: 'button', class: 'button small as-target', text: 'as target',
            title: `Diff: this recording \u2192 ${name}`, 'aria-label': `Compare: this recording as baseline, ${name} as target`,
            onclick: () => open(recording.id, r.id) }))));
    }
  }
  let typing = 0;
  filter.addEventListener('input', () => { clearTimeout(typing); typing = setTimeout(load, 250); });
  filter.addEventListener('keydown', e => { if (e.key === 'Enter') { clearTimeout(typing); load(); } });
  root.addEventListener('toggle', () => { if (root.open) { load(); filter.focus(); } });
  root.addEventListener('keydown', e => { if (e.key === 'Escape') { e.stopPropagation(); root.open = false; summary.focus(); } });
  return { root, destroy() { clearTimeout(typing); seq++; } };
}
