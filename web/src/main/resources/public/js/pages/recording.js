// Recording page: kind tabs, timeline with a range brush, thread filter, inverted toggle,
// the flame graph and the hot-methods table. Everything it shows follows the URL state.

import { el, clear, formatCount, toast } from '../core/dom.js';
import { api, urls } from '../core/api.js';
import * as state from '../core/state.js';
import { FlameTree } from '../flame/flametree.js';
import { FlamePanel } from '../flame/flamepanel.js';
import { kindsOf, kindTabs, recordingHeader, message, link, loading, onLeave } from './common.js';

export async function mount(root, st, lifetime) {
  root.appendChild(loading());
  // a link that names its kind gets its flame graph fetched alongside the metadata: one round trip less
  const early = { kind: st.kind, request: st.kind ? api.flame(st.id, st).catch(e => e) : null };
  // workbench:* marks split the first paint for DevTools and the flame graph benchmark
  performance.mark('workbench:mount');
  const recording = await api.get(st.id);
  performance.mark('workbench:metadata');
  if (lifetime.aborted) return { update() {} };
  clear(root);
  const kinds = kindsOf(recording);
  if (!kinds.length) {
    root.append(recordingHeader(recording), message('No samples in this recording',
      'It holds no CPU, wall-clock, allocation, lock or native-memory samples. Record with the agent or async-profiler (event=cpu,alloc,live) and upload again.'));
    return { update() {} };
  }
  const kindOf = s => (kinds.includes(s.kind) ? s.kind : kinds[0]);
  const heapLink = recording.heap && (recording.heap.gcs > 0 || recording.heap.hasLive)
    ? link('Live heap', { page: 'heap', id: recording.id }, { class: 'button', id: 'heap-link' }) : null;
  const original = el('a', { class: 'button', href: urls.original(recording.id),
    download: recording.name || recording.id, text: 'Download original' });
  let shownKind = kindOf(st);
  // filled once the graph has painted (see extras below)
  const compareSlot = el('span', { class: 'compare-slot' });
  root.appendChild(recordingHeader(recording, [compareSlot, heapLink, original]));

  const tabsHolder = el('div', { class: 'tabs-holder' });
  const threadBox = threadFilter(recording.threads || []);
  const invert = el('input', { type: 'checkbox', id: 'invert' });
  invert.addEventListener('change', () => state.update({ invert: invert.checked ? '1' : undefined, zoom: undefined }));
  const rangeInfo = el('span', { class: 'range-info', id: 'range-info' });
  const clearRange = el('button', { type: 'button', class: 'button small', id: 'range-clear', text: 'Whole recording',
    onclick: () => state.update({ from: undefined, to: undefined }) });
  root.appendChild(el('div', { class: 'controls' }, tabsHolder, el('span', { class: 'spacer' }), threadBox.root,
    el('label', { class: 'toggle', title: 'Inverted: callers of the hottest frames (I)' }, invert, ' Inverted (callers)')));
  const timelineBox = el('div', { class: 'timeline-box' }, el('div', { class: 'timeline-head' },
    el('span', { class: 'label', text: 'Samples over time' }), rangeInfo, clearRange));
  root.appendChild(timelineBox);
  // the timeline's place, kept so nothing moves when it is drawn
  const timelineSpace = el('div', { class: 'timeline' });
  timelineBox.appendChild(timelineSpace);

  const grid = el('div', { class: 'flame-grid' });
  const left = el('div', { class: 'flame-col' }), right = el('aside', { class: 'side-col' });
  grid.append(left, right);
  root.appendChild(grid);
  const status = el('div', { class: 'status-line', id: 'flame-status', 'aria-live': 'polite' });
  left.appendChild(status);
  const panel = new FlamePanel(left, { unit: 'samples', fileName: recording.name || recording.id });
  let timeline = null, hot = null, hotRows = null, extras = null, picker = null, seq = 0;
  onLeave(lifetime, () => {
    seq++; // a flame graph still loading is dropped
    panel.destroy();
    if (timeline) timeline.destroy();
    if (picker) picker.destroy();
  });

  // What the graph's first paint does not need (timeline and D3, hot-methods table, compare picker) loads after
  // it, so their modules do not queue on the browser's six connections ahead of the graph's code and data.
  const loadExtras = () => extras ??= Promise.all([import('../components/timeline.js'), import('../components/hotmethods.js'), import('../components/comparepicker.js')])
    .then(([t, h, c]) => {
      if (lifetime.aborted) return;
      timelineSpace.remove();
      timeline = new t.Timeline(timelineBox, { onRange: (from, to) => state.update({ from, to }) });
      hot = new h.HotMethods(right, { onFocus: name => panel.focusMethod(name), onSort: key => state.update({ sort: key }) });
      picker = c.comparePicker(recording, () => shownKind);
      compareSlot.replaceWith(picker.root);
      applyExtras(current);
      if (hotRows) hot.setRows(...hotRows);
      return timeline.start();
    });

  /** Timeline data, brush and table order for a state; a no-op until the extras are loaded. */
  function applyExtras(s) {
    if (!timeline) return;
    const kind = kindOf(s);
    const line = recording.timeline && recording.timeline[kind];
    if (line) timeline.setData(line.bucketMillis, line.counts, recording.durationMillis);
    else timeline.setData(Math.max(1, recording.durationMillis || 1000), [], recording.durationMillis);
    timeline.setRange(s.from !== undefined ? Number(s.from) : undefined, s.to !== undefined ? Number(s.to) : undefined);
    hot.sort(s.sort);
  }

  let dataKey = null, current = st;
  async function update(s) {
    current = s;
    const kind = shownKind = kindOf(s);
    clear(tabsHolder).appendChild(kindTabs(kinds, kind, k => state.update({ kind: k, zoom: undefined, search: s.search })));
    invert.checked = s.invert === '1';
    threadBox.set(state.parseIds(s.threads));
    const from = s.from !== undefined ? Number(s.from) : undefined, to = s.to !== undefined ? Number(s.to) : undefined;
    rangeInfo.textContent = from !== undefined || to !== undefined
      ? `Range ${((from || 0) / 1000).toFixed(2)} s \u2013 ${to !== undefined ? (to / 1000).toFixed(2) + ' s' : 'end'}` : 'Whole recording';
    clearRange.hidden = from === undefined && to === undefined;
    applyExtras(s);
    const key = [kind, s.from, s.to, s.threads, s.invert].join('|');
    if (key === dataKey) { panel.apply(s); return; }
    dataKey = key;
    try {
      await loadFlame(s, kind);
    } finally {
      loadExtras();
    }
  }

  async function loadFlame(s, kind) {
    const mine = ++seq;
    status.textContent = 'Loading flame graph\u2026';
    let flame;
    try {
      const prefetched = early.kind === kind && s === st ? early.request : null;
      early.kind = null;
      flame = await (prefetched || api.flame(recording.id, { ...s, kind }));
      if (flame instanceof Error) throw flame;
    } catch (e) {
      if (mine === seq) { status.textContent = ''; toast(e.message, true); dataKey = null; }
      return;
    }
    if (mine !== seq) return;
    performance.mark('workbench:flame-data');
    const tree = new FlameTree(flame.names, flame.nodes);
    performance.mark('workbench:flame-tree');
    panel.options.unit = flame.unit;
    status.textContent = tree.size > 1
      ? `${formatCount(flame.samples ?? flame.total)} samples \u00b7 ${formatCount(tree.size)} frames`
      : 'No samples in this range or thread selection.';
    panel.show(tree, current, { inverted: s.invert === '1' });
    // the graph is what a reader looks at first: let the browser paint it before the table is built
    await new Promise(resolve => setTimeout(resolve, 0));
    if (mine !== seq) return;
    hotRows = [tree.methods(s.invert === '1'), tree.total[0], flame.unit];
    if (hot) hot.setRows(...hotRows);
  }
  await update(st);
  return { update, toggleInvert: () => state.update({ invert: current.invert === '1' ? undefined : '1', zoom: undefined }) };
}

/** Thread filter: a disclosure with a name filter and one checkbox per thread. */
function threadFilter(threads) {
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
