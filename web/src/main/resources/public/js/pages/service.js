// Service over time: the runs a recordings query finds (say service:checkout), a lane each on one time axis; a range
// brushed across them opens the flame graph of all their samples in it, and "Compare with…" keeps that range as the
// baseline while a second one is brushed, then opens the diff of the two. Ranges are epoch ms in the URL (from, to;
// baseFrom, baseTo while a comparison is being picked).

import { el, clear, formatCount, formatDate, formatDuration, formatWeight, toast } from '../core/dom.js';
import { api } from '../core/api.js';
import * as state from '../core/state.js';
import { FlameTree } from '../flame/flametree.js';
import { FlamePanel } from '../flame/flamepanel.js';
import { RunLanes } from '../components/runlanes.js';
import { weightPicker } from '../components/samplefilters.js';
import { kindTabs, link, loading, message, onLeave } from './common.js';

export async function mount(root, st, lifetime) {
  root.appendChild(loading());
  const q = st.q || '';
  const data = await api.timeline(q);
  if (lifetime.aborted) return { update() {} };
  clear(root);
  const kinds = Object.keys(data.totals || {}).filter(k => data.totals[k].some(c => c > 0));
  root.appendChild(el('header', { class: 'page-head' },
    el('div', {}, el('h1', { class: 'title', text: 'Service over time' }),
      el('div', { class: 'facts' }, el('span', { class: 'chip', id: 'service-query', text: q || 'all recordings' }),
        el('span', { text: `${data.runs.length} run${data.runs.length === 1 ? '' : 's'}` }),
        data.omitted ? el('span', { class: 'hint', text: `${data.omitted} more not shown (those that start last are)` }) : null)),
    el('div', { class: 'head-actions' }, link('Recordings', { page: 'recordings', q }, { class: 'button' }))));
  if (!data.runs.length || !kinds.length) {
    root.appendChild(message('No runs to show', `No recording with samples matches \u201c${q}\u201d.`));
    return { update() {} };
  }
  const kindOf = s => (kinds.includes(s.kind) ? s.kind : kinds[0]);
  const tabsHolder = el('div', { class: 'tabs-holder' });
  const invert = el('input', { type: 'checkbox', id: 'invert' });
  invert.addEventListener('change', () => state.update({ invert: invert.checked ? '1' : undefined, zoom: undefined }));
  // the kinds weighed in bytes can be weighed by sample count instead
  const BYTES = ['alloc', 'live', 'nativemem', 'leak'];
  const weights = weightPicker(weight => state.update({ weight, zoom: undefined }));
  root.appendChild(el('div', { class: 'controls' }, tabsHolder, weights.root, el('span', { class: 'spacer' }),
    el('label', { class: 'toggle', title: 'Inverted: callers of the hottest frames (I)' }, invert, ' Inverted (callers)')));
  const rangeInfo = el('span', { class: 'range-info', id: 'range-info' });
  const compare = el('button', { type: 'button', class: 'button small', id: 'compare-ranges', text: 'Compare with\u2026',
    title: 'Keep this range as the baseline, then brush the range to compare it with' });
  const cancel = el('button', { type: 'button', class: 'button small', id: 'compare-cancel', text: 'Cancel',
    onclick: () => state.update({ baseFrom: undefined, baseTo: undefined }) });
  const box = el('div', { class: 'timeline-box' }, el('div', { class: 'timeline-head' },
    el('span', { class: 'label', text: 'Samples of each run over time' }), rangeInfo, el('span', { class: 'spacer' }), compare, cancel));
  root.appendChild(box);
  let current = st;
  const lanes = new RunLanes(box, { onRange: (from, to) => picked(from, to),
    hrefOf: r => state.toUrl({ page: 'recording', id: r.id }),
    onOpen: r => state.update({ page: 'recording', id: r.id }, { reset: true }) });
  compare.addEventListener('click', () => {
    const r = rangeOf(current);
    state.update({ baseFrom: String(r[0]), baseTo: String(r[1]) });
  });

  const left = el('div', { class: 'flame-col' });
  root.appendChild(left);
  const status = el('div', { class: 'status-line', id: 'flame-status', 'aria-live': 'polite' });
  const problem = el('div', { class: 'problem', id: 'view-problem', role: 'alert', hidden: true });
  left.append(status, problem);
  const panel = new FlamePanel(left, { unit: 'samples', fileName: 'runs-' + q.replace(/[^\w.-]+/g, '_') });
  const contributors = el('div', { class: 'runs-used', id: 'runs-used' });
  left.appendChild(contributors);
  let seq = 0, dataKey = null;
  onLeave(lifetime, () => {
    seq++;
    panel.destroy();
    lanes.destroy();
  });

  /** The range shown: the URL's, else every run's whole span. */
  function rangeOf(s) {
    const from = Number(s.from), to = Number(s.to);
    return Number.isFinite(from) && Number.isFinite(to) && from < to ? [from, to] : [data.from, data.to];
  }

  /** A brushed range: the view's range, or (while a baseline is kept) the target of a diff. */
  function picked(from, to) {
    if (from === undefined) { state.update({ from: undefined, to: undefined, zoom: undefined }); return; }
    if (current.baseFrom !== undefined) {
      state.update({ page: 'diff', q, kind: kindOf(current), baseFrom: current.baseFrom, baseTo: current.baseTo,
        targetFrom: String(from), targetTo: String(to) }, { reset: true });
      return;
    }
    state.update({ from: String(from), to: String(to), zoom: undefined });
  }

  async function update(s) {
    current = s;
    const kind = kindOf(s);
    clear(tabsHolder).appendChild(kindTabs(kinds, kind, k => state.update({ kind: k, zoom: undefined, weight: undefined })));
    weights.set(BYTES.includes(kind), s.weight);
    invert.checked = s.invert === '1';
    const range = rangeOf(s);
    const whole = range[0] === data.from && range[1] === data.to;
    const picking = s.baseFrom !== undefined && s.baseTo !== undefined;
    rangeInfo.textContent = picking
      ? `Baseline ${spanText(Number(s.baseFrom), Number(s.baseTo))}: now brush the range to compare it with`
      : whole ? 'All runs, whole span: drag across the lanes to pick a range' : 'Range ' + spanText(range[0], range[1]);
    compare.hidden = picking;
    cancel.hidden = !picking;
    lanes.set(data, kind, whole ? null : range, picking ? [Number(s.baseFrom), Number(s.baseTo)] : null);
    const key = [kind, range[0], range[1], s.invert, s.weight].join('|');
    if (key === dataKey) { panel.apply(s); return; }
    dataKey = key;
    const mine = ++seq;
    status.textContent = 'Loading flame graph\u2026';
    let flame;
    try {
      flame = await api.mergedFlame(q, { ...s, kind, from: range[0], to: range[1] });
    } catch (e) {
      if (mine === seq) {
        dataKey = null;
        status.textContent = '';
        if (e.status === 400) {
          clear(problem).append(el('h2', { text: 'This view cannot be shown' }), el('p', { text: e.message }));
          problem.hidden = false;
        } else toast(e.message, true);
      }
      return;
    }
    if (mine !== seq) return;
    problem.hidden = true;
    const tree = new FlameTree(flame.names, flame.nodes);
    panel.options.unit = flame.unit;
    status.textContent = tree.size > 1
      ? `${formatWeight(flame.total, flame.unit)} from ${(flame.runs || []).length} run${(flame.runs || []).length === 1 ? '' : 's'} \u00b7 ${formatCount(tree.size)} frames`
      : 'No samples in this range.';
    if (flame.omitted) status.textContent += ` \u00b7 ${flame.omitted} more run${flame.omitted === 1 ? '' : 's'} not merged (at most 100)`;
    status.dataset.weight = String(flame.total);
    panel.show(tree, current, { inverted: s.invert === '1' });
    drawRuns(flame.runs || []);
  }

  function drawRuns(runs) {
    clear(contributors);
    if (!runs.length) return;
    contributors.append(el('span', { class: 'label', text: 'Runs in this range: ' }),
      ...runs.map(r => el('span', { class: 'run-used', dataset: { id: r.id } },
        link(r.name || r.id, { page: 'recording', id: r.id }, { title: formatDate(r.startMillis) }),
        el('small', { text: ` ${formatCount(r.samples)} samples` }))));
  }

  await update(st);
  return { update, toggleInvert: () => state.update({ invert: current.invert === '1' ? undefined : '1', zoom: undefined }) };
}

/** "2026-11-26 10:00:01.200 – 10:00:04.200 UTC (3.00 s)": a range on the absolute axis. */
export function spanText(from, to) {
  const iso = t => new Date(t).toISOString().replace('T', ' ').slice(0, 23);
  return `${iso(from)} \u2013 ${iso(to).slice(11)} UTC (${formatDuration(to - from)})`;
}
