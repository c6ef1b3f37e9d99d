// Thread filter: a menu with a name filter and one checkbox per thread (busiest first); Apply writes threads= .

import { el, formatCount } from '../core/dom.js';
import * as state from '../core/state.js';

export function threadFilter(threads) {
  const summary = el('summary', { class: 'button', id: 'threads-button', text: 'All threads' });
  const filter = el('input', { type: 'search', placeholder: 'Filter threads', 'aria-label': 'Filter threads', class: 'thread-filter' });
  const list = el('div', { class: 'thread-list', role: 'group', 'aria-label': 'Threads' });
  const boxes = [];
  const sorted = [...threads].sort((a, b) => (b.samples || 0) - (a.samples || 0));
  for (const t of sorted) {
    const box = el('input', { type: 'checkbox', value: String(t.id), dataset: { name: t.name || '' } });
    boxes.push(box);
    list.appendChild(el('label', { class: 'thread' }, box, el('span', { class: 'thread-name', text: t.name || ('thread ' + t.id) }),
      el('small', { text: formatCount(t.samples || 0) })));
  }
  filter.addEventListener('input', () => {
    const q = filter.value.toLowerCase();
    for (const b of boxes) b.parentElement.hidden = q && !b.dataset.name.toLowerCase().includes(q);
  });
  const apply = el('button', { type: 'button', class: 'button primary small', text: 'Apply', id: 'threads-apply', onclick: () => {
    const ids = boxes.filter(b => b.checked).map(b => b.value);
    root.open = false;
    state.update({ threads: ids.length ? ids.join(',') : undefined, zoom: undefined });
  } });
  const none = el('button', { type: 'button', class: 'button small', text: 'All threads', onclick: () => { boxes.forEach(b => { b.checked = false; }); apply.click(); } });
  const root = el('details', { class: 'menu threads', id: 'threads' }, summary,
    el('div', { class: 'menu-items wide' }, filter, list, el('div', { class: 'row' }, none, apply)));
  root.addEventListener('keydown', e => { if (e.key === 'Escape') { root.open = false; summary.focus(); } });
  if (!threads.length) summary.setAttribute('aria-disabled', 'true');
  return {
    root,
    set(ids) {
      for (const b of boxes) b.checked = ids.includes(b.value);
      summary.textContent = ids.length ? `${ids.length} thread${ids.length > 1 ? 's' : ''}` : 'All threads';
    },
  };
}
