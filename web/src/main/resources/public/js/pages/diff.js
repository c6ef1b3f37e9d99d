// Diff page: baseline vs target of one kind. Merged flame graph (width = mean of both normalised shares),
// coloured by the change of each frame's share: red grows, blue shrinks, stronger = bigger change.

import { el, clear, formatPercent, labelChips, toast, nameCell } from '../core/dom.js';
import { api } from '../core/api.js';
import * as state from '../core/state.js';
import { FlameTree } from '../flame/flametree.js';
import { FlamePanel } from '../flame/flamepanel.js';
import { diffColor } from '../flame/colors.js';
import { kindsOf, kindTabs, message, link, loading, onLeave } from './common.js';

export async function mount(root, st, lifetime) {
  root.appendChild(loading());
  const [base, target] = await Promise.all([api.get(st.base), api.get(st.id)]);
  if (lifetime.aborted) return { update() {} };
  clear(root);
  const baseKinds = kindsOf(base);
  const kinds = kindsOf(target).filter(k => baseKinds.includes(k));
  const side = (label, r, cls) => el('div', { class: 'diff-side ' + cls },
    el('span', { class: 'label', text: label }),
    link(r.name || r.id, { page: 'recording', id: r.id }, { class: 'title-link' }), labelChips(r.labels));
  root.appendChild(el('header', { class: 'page-head' },
    el('div', {}, el('h1', { class: 'title', text: 'Diff' }),
      el('div', { class: 'diff-sides' }, side('Baseline', base, 'base'), el('span', { class: 'arrow', text: '\u2192' }), side('Target', target, 'target'))),
    el('div', { class: 'head-actions' }, el('button', { type: 'button', class: 'button', id: 'swap', text: 'Swap',
      onclick: () => state.update({ base: target.id, id: base.id, zoom: undefined }) }))));
  if (!kinds.length) {
    root.appendChild(message('Nothing to compare', 'These recordings have no profile kind in common.'));
    return { update() {} };
  }
  const tabsHolder = el('div', { class: 'tabs-holder' });
  root.appendChild(el('div', { class: 'controls' }, tabsHolder));
  const grid = el('div', { class: 'flame-grid' });
  const left = el('div', { class: 'flame-col' }), right = el('aside', { class: 'side-col' });
  grid.append(left, right);
  root.appendChild(grid);
  let diff = null, delta = null, maxAbs = 0;
  const panel = new FlamePanel(left, {
    unit: 'share', legend: 'diff', fileName: `diff-${base.name || base.id}-${target.name || target.id}`,
    colorOf: i => diffColor(delta[i], maxAbs),
    describe: i => [
      ['Baseline', formatPercent(diff.nodes.base[i] / (diff.baseTotal || 1))],
      ['Target', formatPercent(diff.nodes.target[i] / (diff.targetTotal || 1))],
      ['Change', (delta[i] >= 0 ? '+' : '') + formatPercent(delta[i]) + ' of all'],
    ],
  });
  const changes = el('div', { class: 'changes' });
  right.appendChild(changes);

  let dataKey = null, seq = 0, current = st;
  onLeave(lifetime, () => {
    seq++; // a diff still loading is dropped
    panel.destroy();
  });
  async function update(s) {
    current = s;
    const kind = kinds.includes(s.kind) ? s.kind : kinds[0];
    clear(tabsHolder).appendChild(kindTabs(kinds, kind, k => state.update({ kind: k, zoom: undefined })));
    const key = [s.base, s.id, kind].join('|');
    if (key === dataKey) { panel.apply(s); return; }
    dataKey = key;
    const mine = ++seq;
    try {
      diff = await api.diff(s.base, s.id, kind);
    } catch (e) { if (mine === seq) { toast(e.message, true); dataKey = null; } return; }
    if (mine !== seq) return;
    const n = diff.nodes.name.length, bt = diff.baseTotal || 1, tt = diff.targetTotal || 1;
    const weights = new Float64Array(n);
    delta = new Float64Array(n);
    maxAbs = 0;
    for (let i = 0; i < n; i++) {
      const b = diff.nodes.base[i] / bt, t = diff.nodes.target[i] / tt;
      weights[i] = (b + t) / 2;
      delta[i] = t - b;
      if (i > 0 && Math.abs(delta[i]) > maxAbs) maxAbs = Math.abs(delta[i]);
    }
    panel.show(new FlameTree(diff.names, diff.nodes, weights), current);
    drawChanges(changes, diff.changes || [], name => panel.focusMethod(name));
  }
  await update(st);
  return { update };
}

function drawChanges(container, changes, onFocus) {
  clear(container);
  const significant = changes.filter(c => c.significant);
  const shown = (significant.length ? significant : changes).slice(0, 100);
  const body = el('tbody');
  for (const c of shown) {
    const tr = el('tr', { tabindex: '0', class: c.delta > 0 ? 'grows' : 'shrinks' },
      nameCell(c.method),
      el('td', { class: 'num', text: formatPercent(c.baseShare) }),
      el('td', { class: 'num', text: formatPercent(c.targetShare) }),
      el('td', { class: 'num delta', text: (c.delta > 0 ? '+' : '') + formatPercent(c.delta) }));
    tr.addEventListener('click', () => onFocus(c.method));
    tr.addEventListener('keydown', e => { if (e.key === 'Enter') onFocus(c.method); });
    body.appendChild(tr);
  }
  container.appendChild(el('div', { class: 'table-scroll' }, el('table', { class: 'data', id: 'changes' },
    el('caption', { text: significant.length ? `Significant changes (${significant.length})` : 'Largest changes (none significant at p < 0.05)' }),
    el('thead', {}, el('tr', {}, el('th', { text: 'Method' }), el('th', { class: 'num', text: 'Base' }),
      el('th', { class: 'num', text: 'Target' }), el('th', { class: 'num', text: '\u0394' }))),
    body)));
}
