// Heap diff page: the live heap at one GC (base, baseGc) against another (id, gc), of one recording or two, by class
// and by allocation stack, each change tested as the CPU diff tests it (GET /api/heap/diff, docs/http-api.md).

import { el, clear, formatBytes, formatCount, formatPercent, nameCell } from '../core/dom.js';
import { api } from '../core/api.js';
import * as state from '../core/state.js';
import { message, link, loading, onLeave } from './common.js';
import { gcLabel } from './heap.js';

export async function mount(root, st, lifetime) {
  root.appendChild(loading());
  const same = st.base === st.id;
  const [base, target, baseHeap, targetHeap] = await Promise.all([api.get(st.base), same ? null : api.get(st.id),
    api.heap(st.base), same ? null : api.heap(st.id)]);
  if (lifetime.aborted) return { update() {} };
  const targetRecording = same ? base : target;
  const targetGcs = (same ? baseHeap : targetHeap).gcs || [];
  clear(root);
  const picker = (gcs, key, label) => {
    const select = el('select', { id: key + '-select', 'aria-label': label },
      el('option', { value: '', text: 'last GC with live samples' }),
      gcs.map((g, i) => el('option', { value: String(i), text: `${gcLabel(g, i)} \u2014 ${formatBytes(g.usedAfter)} after` })));
    select.addEventListener('change', () => state.update({ [key]: select.value || undefined }));
    return select;
  };
  // bytes (absent) or shares (mode=relative): which change each row's test is of
  const modes = el('div', { class: 'tabs', role: 'radiogroup', 'aria-label': 'Compare' },
    [['bytes', 'Bytes', 'Test each row\u2019s bytes'], ['relative', 'Shares', 'Test each row\u2019s share of its side\u2019s live samples']]
      .map(([value, text, title]) => el('button', { type: 'button', role: 'radio', class: 'subtab', id: 'mode-' + value,
        dataset: { mode: value }, text, title, onclick: () => state.update({ mode: value === 'relative' ? value : undefined }) })));
  // each side's name links to its heap page at the GC it shows (rebuilt as the GC changes)
  const baseLink = el('span'), targetLink = el('span');
  const basePicker = picker(baseHeap.gcs || [], 'baseGc', 'Baseline GC');
  const targetPicker = picker(targetGcs, 'gc', 'Target GC');
  root.appendChild(el('header', { class: 'page-head' },
    el('h1', { class: 'title' }, 'Heap diff'),
    el('p', { class: 'facts' },
      el('span', {}, 'Baseline ', baseLink, ' at ', basePicker),
      el('span', { text: '\u2192' }),
      el('span', {}, 'Target ', targetLink, ' at ', targetPicker),
      modes)));
  const body = el('div', { class: 'heapdiff-body' });
  root.appendChild(body);
  let seq = 0;
  onLeave(lifetime, () => { seq++; });

  async function update(s) {
    basePicker.value = s.baseGc || '';
    targetPicker.value = s.gc || '';
    clear(baseLink).appendChild(link(base.name || base.id, { page: 'heap', id: base.id, gc: s.baseGc }));
    clear(targetLink).appendChild(link(targetRecording.name || targetRecording.id, { page: 'heap', id: targetRecording.id, gc: s.gc }));
    const shown = s.mode === 'relative' ? 'relative' : 'bytes';
    for (const b of modes.children) {
      b.setAttribute('aria-checked', String(b.dataset.mode === shown));
      b.setAttribute('aria-selected', String(b.dataset.mode === shown));
    }
    const mine = ++seq;
    clear(body).appendChild(loading());
    let diff;
    try {
      diff = await api.heapDiff(s.base, s.baseGc, s.id, s.gc, s.mode === 'relative' ? 'relative' : undefined);
    } catch (e) {
      if (mine === seq) clear(body).appendChild(message('No heap diff for these GCs', e.message));
      return;
    }
    if (mine !== seq) return;
    clear(body);
    const side = d => `${gcLabel(d.gc, d.gc.index)}: ${formatBytes(d.usedAfter)} used after, ${formatCount(d.liveSamples)} live samples`;
    body.appendChild(el('p', { class: 'status-line', id: 'heapdiff-summary',
      text: `Baseline ${side(diff.base)} \u2192 target ${side(diff.target)}. Significant: ${diff.test.name}, `
        + `${diff.test.correction} over each table's rows, \u03b1 = ${diff.test.alpha}.` }));
    for (const w of diff.warnings || []) body.appendChild(el('p', { class: 'hint warning', text: w }));
    body.appendChild(table('heapdiff-classes', 'Live heap by class', diff.byClass, diff.classRows, false));
    body.appendChild(table('heapdiff-stacks', 'Live heap by allocation stack', diff.byStack, diff.stackRows, true));
  }
  await update(st);
  return { update };
}

function table(id, caption, rows, total, stacks) {
  const body = el('tbody');
  for (const r of rows) {
    const mark = r.significance > 0 ? 'grew' : r.significance < 0 ? 'shrank' : '';
    const name = stacks
      ? el('td', { class: 'method', title: [...r.stack, r.class].join('\n') },
        el('span', { class: 'pkg', text: r.stack.length > 1 ? '\u2026 \u2192 ' : '' }),
        el('span', { class: 'leaf', text: (r.stack.length ? r.stack[r.stack.length - 1] + ' \u2192 ' : '[no stack] \u2192 ') + r.class }))
      : nameCell(r.class);
    body.appendChild(el('tr', { class: 'heapdiff-row' + (mark ? ' sig-' + mark : ''), dataset: { significant: String(r.significant) } },
      name,
      el('td', { class: 'num', text: formatBytes(r.baseBytes) }), el('td', { class: 'num', text: formatBytes(r.targetBytes) }),
      el('td', { class: 'num delta', text: (r.delta > 0 ? '+' : r.delta < 0 ? '\u2212' : '') + formatBytes(Math.abs(r.delta)) }),
      el('td', { class: 'num', text: `${formatPercent(r.baseShare)} \u2192 ${formatPercent(r.targetShare)}` }),
      el('td', { class: 'num', text: `${formatCount(r.baseSamples)} / ${formatCount(r.targetSamples)}` }),
      el('td', { class: 'num', text: r.pValue < 1e-4 ? r.pValue.toExponential(1) : r.pValue.toFixed(4) }),
      el('td', { class: 'sig', text: mark === 'grew' ? '\u25b2 grew' : mark === 'shrank' ? '\u25bc shrank' : '' })));
  }
  return el('div', { class: 'table-scroll card' }, el('table', { class: 'data', id },
    el('caption', { text: `${caption} (${formatCount(rows.length)} of ${formatCount(total)})` }),
    el('thead', {}, el('tr', {}, el('th', { text: stacks ? 'Stack \u2192 class' : 'Class' }),
      el('th', { class: 'num', text: 'Baseline' }), el('th', { class: 'num', text: 'Target' }), el('th', { class: 'num', text: 'Change' }),
      el('th', { class: 'num', text: 'Share' }), el('th', { class: 'num', text: 'Samples' }), el('th', { class: 'num', text: 'p (corrected)' }),
      el('th', { text: 'Significant' }))), body));
}
