// Recording page: kind tabs, source and thread-state filters, timeline with a range brush, thread filter, inverted
// toggle, the flame graph (or one method's sandwich), and beside it the hot methods or the call tree. Everything it
// shows follows the URL state.

import { el, clear, afterPaint, formatCount, formatWeight, toast } from '../core/dom.js';
import { api, urls } from '../core/api.js';
import * as state from '../core/state.js';
import { takeMade } from '../core/urls.js';
import { buildTree } from '../flame/flametree.js';
import { FlamePanel } from '../flame/flamepanel.js';
import { kindsOf, kindTabs, recordingHeader, message, link, loading, onLeave, sizesMissing, rangeProblem, watchRun } from './common.js';
import { threadFilter } from '../components/threadfilter.js';
import { sourcePicker, stateFilter, statesOf, weightPicker } from '../components/samplefilters.js';

export async function mount(root, st, lifetime) {
  root.appendChild(loading());
  // a link that names its kind gets its flame graph fetched alongside the metadata: one round trip less; its tree
  // may be built already (core/boot.js)
  const made = takeMade(urls.flame(st.id, st));
  const early = { kind: st.kind, request: st.kind && !rangeProblem(st, null)
    ? made || api.flame(st.id, st).then(flame => ({ flame }), error => ({ error })) : null };
  // workbench:* marks split the first paint for DevTools and the flame graph benchmark
  performance.mark('workbench:mount');
  const recording = await api.get(st.id);
  performance.mark('workbench:metadata');
  if (lifetime.aborted) return { update() {} };
  clear(root);
  watchRun(recording, lifetime);
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
  // a kind's states and sources differ from another's: a new source starts with all its states
  const sources = sourcePicker(source => state.update({ source, states: undefined, zoom: undefined }));
  const states = stateFilter(picked => state.update({ states: picked ? picked.join(',') : undefined, zoom: undefined }));
  const weights = weightPicker(weight => state.update({ weight }));
  const rangeInfo = el('span', { class: 'range-info', id: 'range-info' });
  const clearRange = el('button', { type: 'button', class: 'button small', id: 'range-clear', text: 'Whole recording',
    onclick: () => state.update({ from: undefined, to: undefined }) });
  root.appendChild(el('div', { class: 'controls' }, tabsHolder, sources.root, weights.root, el('span', { class: 'spacer' }), threadBox.root,
    el('label', { class: 'toggle', title: 'Inverted: callers of the hottest frames (I)' }, invert, ' Inverted (callers)')));
  root.appendChild(states.root);
  const lanesToggle = el('button', { type: 'button', class: 'button small', id: 'lanes-toggle', 'aria-expanded': 'false',
    'aria-controls': 'lanes-holder', text: 'Threads over time',
    onclick: () => state.update({ lanes: current.lanes === '1' ? undefined : '1' }) });
  // comparing two ranges of this recording: range A is kept in baseFrom/baseTo while range B is brushed
  let awaitingA = false;
  const compareInfo = el('span', { class: 'compare-info', id: 'compare-info', 'aria-live': 'polite' });
  const compareRanges = el('button', { type: 'button', class: 'button small', id: 'compare-ranges', text: 'Compare ranges',
    title: 'Diff this recording against itself: brush range A, then range B', onclick: () => {
      if (current.from !== undefined && current.to !== undefined && !rangeProblem(current, recording)) {
        state.update({ baseFrom: current.from, baseTo: current.to });
      } else {
        awaitingA = true;
        showCompare(current);
      }
    } });
  const compareCancel = el('button', { type: 'button', class: 'button small', id: 'compare-cancel', text: 'Cancel', hidden: true,
    onclick: () => { awaitingA = false; state.update({ baseFrom: undefined, baseTo: undefined }); showCompare(current); } });
  const timelineBox = el('div', { class: 'timeline-box' }, el('div', { class: 'timeline-head' },
    el('span', { class: 'label', text: 'Samples over time' }), rangeInfo, clearRange, compareInfo, el('span', { class: 'spacer' }),
    compareRanges, compareCancel, lanesToggle));

  /** The compare-ranges prompt: which range to brush next. */
  function showCompare(s) {
    const haveA = s.baseFrom !== undefined && s.baseTo !== undefined;
    const secs = v => (Number(v) / 1000).toFixed(2) + ' s';
    compareInfo.textContent = haveA ? `Range A ${secs(s.baseFrom)} \u2013 ${secs(s.baseTo)}: now brush range B`
      : awaitingA ? 'Brush range A' : '';
    compareRanges.hidden = haveA || awaitingA;
    compareCancel.hidden = !(haveA || awaitingA);
  }

  /** A brushed range: the view's, or a range to compare (A, then B, which opens the diff of A and B). */
  function onTimelineRange(from, to) {
    if (from !== undefined && awaitingA) {
      awaitingA = false;
      state.update({ baseFrom: String(from), baseTo: String(to) });
    } else if (from !== undefined && current.baseFrom !== undefined && current.baseTo !== undefined) {
      state.update({ page: 'diff', base: recording.id, id: recording.id, kind: shownKind, baseFrom: current.baseFrom,
        baseTo: current.baseTo, targetFrom: String(from), targetTo: String(to) }, { reset: true });
    } else {
      state.update({ from, to });
    }
  }
  root.appendChild(timelineBox);
  // the timeline's place, kept so nothing moves when it is drawn
  const timelineSpace = el('div', { class: 'timeline' });
  timelineBox.appendChild(timelineSpace);
  const lanesHolder = el('div', { class: 'lanes-holder', id: 'lanes-holder', hidden: true });
  timelineBox.appendChild(lanesHolder);

  const grid = el('div', { class: 'flame-grid' });
  const left = el('div', { class: 'flame-col' }), right = el('aside', { class: 'side-col', 'aria-label': 'Tables' });
  grid.append(left, right);
  root.appendChild(grid);
  const status = el('div', { class: 'status-line', id: 'flame-status', 'aria-live': 'polite' });
  const problem = el('div', { class: 'problem', id: 'view-problem', role: 'alert', hidden: true });
  left.append(status, problem);
  const panel = new FlamePanel(left, { unit: 'samples', fileName: recording.name || recording.id });
  const sandwichHolder = el('div', { class: 'sandwich-holder', hidden: true });
  left.appendChild(sandwichHolder);

  const side = sidePanel(right);
  let timeline = null, hot = null, tree = null, picker = null, sandwich = null, lanes = null, menu = null, extras = null, seq = 0;
  let shownTree = null, shownUnit = 'samples', shownInverted = false;
  onLeave(lifetime, () => {
    seq++; // a flame graph still loading is dropped
    panel.destroy();
    side.destroy();
    for (const part of [timeline, hot, tree, picker, sandwich, lanes, menu]) if (part) part.destroy();
  });

  // What the graph's first paint does not need (timeline and D3, the side tables, compare picker) loads after it,
  // so their modules do not queue on the browser's six connections ahead of the graph's code and data.
  const loadExtras = () => extras ??= Promise.all([import('../components/timeline.js'), import('../components/hotmethods.js'),
    import('../components/calltree.js'), import('../components/comparepicker.js'), import('../components/framemenu.js')])
    .then(([t, h, c, p, f]) => {
      if (lifetime.aborted) return;
      menu = f.frameMenu(panel.graph, {
        sandwich: name => state.update({ method: name }),
        zoom: node => state.update({ zoom: shownTree.pathOf(node).join(';') }),
      });
      timelineSpace.remove();
      timeline = new t.Timeline(timelineBox, { onRange: onTimelineRange });
      timelineBox.appendChild(lanesHolder); // under the timeline
      const onSort = key => state.update({ sort: key });
      const onSandwich = name => state.update({ method: name });
      hot = new h.HotMethods(side.hotHolder, { onFocus: focusMethod, onSort, onSandwich });
      tree = new c.CallTree(side.treeHolder, { onSort, onSandwich,
        onZoom: node => state.update({ zoom: node > 0 ? shownTree.pathOf(node).join(';') : undefined }) });
      picker = p.comparePicker(recording, () => shownKind);
      compareSlot.replaceWith(picker.root);
      extrasKey = extrasOf(current);
      applyExtras(current);
      fillTables();
      return timeline.start();
    });

  /** The hot method's heaviest frame, zoomed: the user's search stays as it is. */
  function focusMethod(name) {
    if (!shownTree) return;
    const node = shownTree.heaviest(name);
    state.update({ zoom: node > 0 ? shownTree.pathOf(node).join(';') : undefined });
  }

  // a tree's method rows, computed once for the hot methods and the sandwich's search
  let methodsFor = null, methodRows = null;
  function methodsOf(t) {
    if (methodsFor !== t) { methodsFor = t; methodRows = t.methods(shownInverted); }
    return methodRows;
  }

  /** Fills the side tables from the graph's tree once both are there; the same tree is not filled twice. */
  function fillTables() {
    if (!hot || !shownTree || tree.tree === shownTree) return;
    hot.setRows(methodsOf(shownTree), shownTree.total[0], shownUnit);
    tree.setTree(shownTree, shownUnit);
    syncTree();
  }

  /**
   * The call tree follows the graph's zoom and search while its tab is shown, and catches up when it is opened: a
   * search or zoom with the hot methods shown redraws the graph only (opening the matches' rows was half a search's time).
   */
  function syncTree() {
    if (!tree || !shownTree || tree.tree !== shownTree || current.side !== 'tree') return;
    tree.setSearch(panel.searchResult ? panel.searchResult.hit : null);
    tree.setZoom(panel.graph.zoom);
  }

  /** What applyExtras draws from: a change of anything else leaves the timeline and the side tables as they are. */
  const extrasOf = s => [kindOf(s), s.from, s.to, s.sort, s.side, s.filter].join('|');

  /** Timeline data, brush, side tab, table order and filter for a state; a no-op until the extras are loaded. */
  function applyExtras(s) {
    const which = s.side === 'tree' ? 'tree' : 'hot';
    side.show(which, s.filter);
    if (!timeline) return;
    syncTree();
    const kind = kindOf(s);
    const line = recording.timeline && recording.timeline[kind];
    if (line) timeline.setData(line.bucketMillis, line.counts, recording.durationMillis);
    else timeline.setData(Math.max(1, recording.durationMillis || 1000), [], recording.durationMillis);
    const bad = rangeProblem(s, recording);
    timeline.setRange(bad || s.from === undefined ? undefined : Number(s.from), bad || s.to === undefined ? undefined : Number(s.to));
    hot.sort(s.sort);
    tree.sort(s.sort);
    hot.filter(s.filter);
    tree.filter(s.filter);
  }

  function showProblem(title, text, actions = []) {
    clear(problem).append(el('h2', { text: title }), el('p', { text }), el('div', { class: 'row start' }, actions));
    problem.hidden = false;
    panel.root.hidden = true;
    sandwichHolder.hidden = true;
    status.textContent = '';
  }

  // what each part was last drawn for: a change of the URL redraws only the parts it concerns (a zoom or a search
  // only the flame graph, not the tabs, timeline or hot-methods table)
  let dataKey = null, current = st, controlsKey = null, extrasKey = null;
  async function update(s) {
    current = s;
    const kind = shownKind = kindOf(s);
    showLanes(s, kind);
    showCompare(s);
    const bad = rangeProblem(s, recording);
    const controls = [kind, s.invert, s.threads, s.from, s.to, s.source, s.states, s.weight].join('|');
    if (controls !== controlsKey) {
      controlsKey = controls;
      clear(tabsHolder).appendChild(kindTabs(kinds, kind,
        k => state.update({ kind: k, zoom: undefined, search: current.search, states: undefined, source: undefined, weight: undefined })));
      invert.checked = s.invert === '1';
      threadBox.set(state.parseIds(s.threads));
      sources.set(recording, kind, s.source);
      const kindInfo = (recording.kinds || {})[kind] || {};
      weights.set(kindInfo.unit === 'bytes' && !sizesMissing(recording, kind), s.weight);
      states.set(statesOf(recording, kind, s.source), s.states ? s.states.split(',') : []);
      const from = s.from !== undefined ? Number(s.from) : undefined, to = s.to !== undefined ? Number(s.to) : undefined;
      rangeInfo.textContent = bad ? 'Time range not usable'
        : from !== undefined || to !== undefined
          ? `Range ${((from || 0) / 1000).toFixed(2)} s \u2013 ${to !== undefined ? (to / 1000).toFixed(2) + ' s' : 'end'}` : 'Whole recording';
      clearRange.hidden = from === undefined && to === undefined;
    }
    const extras = extrasOf(s);
    if (extras !== extrasKey) {
      if (timeline) extrasKey = extras; // until the extras are loaded only the side tab is shown
      applyExtras(s);
    }
    if (bad) {
      dataKey = null;
      seq++;
      const swap = bad.swap ? [el('button', { type: 'button', class: 'button', id: 'range-swap', text: 'Swap the two',
        onclick: () => state.update({ from: s.to, to: s.from }) })] : [];
      showProblem('This link\u2019s time range shows nothing', bad.text, [...swap,
        el('button', { type: 'button', class: 'button primary', text: 'Show the whole recording', onclick: () => state.update({ from: undefined, to: undefined }) })]);
      return;
    }
    const key = [kind, s.from, s.to, s.threads, s.invert, s.states, s.source, s.weight].join('|');
    if (key === dataKey) {
      panel.apply(s);
      syncTree();
      await showSandwich(s);
      return;
    }
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
    let flame, built;
    try {
      const prefetched = early.kind === kind && s === st ? early.request : null;
      early.kind = null;
      const got = prefetched ? await prefetched : { flame: await api.flame(recording.id, { ...s, kind }) };
      if (got.error) throw got.error;
      ({ flame, tree: built } = got);
    } catch (e) {
      if (mine === seq) {
        dataKey = null;
        if (e.status === 400) showProblem('This view cannot be shown', e.message);
        else { status.textContent = ''; toast(e.message, true); }
      }
      return;
    }
    if (mine !== seq) return;
    built ??= buildTree(flame);
    const unit = shownUnit = flame.unit === 'bytes' && sizesMissing(recording, kind) ? 'samples' : flame.unit;
    panel.options.unit = unit;
    // the frame tooltip's thread states where the states legend is shown: the view's samples have two or more
    panel.options.frameStates = Object.keys(statesOf(recording, kind, s.source)).length > 1
      ? path => api.frameStates(recording.id, { ...s, kind }, path) : null;
    problem.hidden = true;
    status.textContent = built.size > 1 ? statusText(flame, unit, built.size, sizesMissing(recording, kind))
      : 'No samples in this range, thread or state selection.';
    status.dataset.weight = String(flame.total);
    status.dataset.samples = String(flame.samples ?? flame.total);
    shownTree = built;
    shownInverted = s.invert === '1';
    panel.show(built, current, { inverted: s.invert === '1' });
    await showSandwich(current);
    // the graph is what a reader looks at first: let the browser paint it before the tables are built
    await afterPaint();
    if (mine !== seq) return;
    fillTables();
  }

  let lanesKey = null, lanesSeq = 0, lanesData = null;
  /** The threads-over-time lanes while lanes=1: the kind's samples of the states and source shown, per thread. */
  async function showLanes(s, kind) {
    const open = s.lanes === '1';
    lanesToggle.setAttribute('aria-expanded', String(open));
    lanesToggle.textContent = open ? 'Hide threads' : 'Threads over time';
    lanesHolder.hidden = !open;
    if (!open) return;
    const view = { kind, states: s.states, source: s.source };
    const key = JSON.stringify(view);
    const selected = state.parseIds(s.threads);
    const range = s.from !== undefined || s.to !== undefined ? [Number(s.from || 0), s.to !== undefined ? Number(s.to) : undefined] : null;
    if (key === lanesKey) { if (lanes && lanesData) lanes.set(lanesData, selected, range); return; }
    lanesKey = key;
    const mine = ++lanesSeq;
    const [module, data] = await Promise.all([import('../components/threadlanes.js'), api.threads(recording.id, view)]).catch(e => {
      if (mine === lanesSeq) { lanesKey = null; toast(e.message, true); }
      return [];
    });
    if (!module || mine !== lanesSeq || lifetime.aborted) return;
    lanes ??= new module.ThreadLanes(lanesHolder, {
      onPick: (id, from, to) => state.update(to === undefined ? { threads: String(id), zoom: undefined }
        : { threads: String(id), from, to, zoom: undefined }),
    });
    lanesData = data;
    lanes.set(data, state.parseIds(current.threads), range);
  }

  let sandwichKey = null, sandwichSeq = 0;
  /** The method's sandwich in place of the flame graph while method= is set. */
  async function showSandwich(s) {
    if (!s.method) {
      sandwichKey = null;
      sandwichHolder.hidden = true;
      panel.root.hidden = false;
      return;
    }
    const key = dataKey + '|' + s.method;
    panel.root.hidden = true;
    sandwichHolder.hidden = false;
    if (key === sandwichKey) return;
    sandwichKey = key;
    const mine = ++sandwichSeq;
    const module = await import('../components/sandwich.js');
    if (lifetime.aborted || mine !== sandwichSeq) return;
    sandwich ??= new module.SandwichView(sandwichHolder, {
      onMethod: name => state.update({ method: name }),
      onClose: () => state.update({ method: undefined }),
    });
    let data;
    try {
      data = await api.sandwich(recording.id, { ...s, kind: kindOf(s) }, s.method);
    } catch (e) {
      if (mine === sandwichSeq) {
        sandwichKey = null;
        showProblem('No sandwich for this method', e.message, [el('button', { type: 'button', class: 'button primary',
          text: 'Back to the flame graph', onclick: () => state.update({ method: undefined }) })]);
      }
      return;
    }
    if (mine !== sandwichSeq || lifetime.aborted) return;
    problem.hidden = true;
    sandwich.show(data, shownUnit, shownTree ? shownTree.total[0] : 0);
    if (shownTree) sandwich.offer(methodsOf(shownTree));
  }

  await update(st);
  return { update, toggleInvert: () => state.update({ invert: current.invert === '1' ? undefined : '1', zoom: undefined }) };
}

/**
 * The status line: the view's weight in the kind's unit, and the sample count behind it where that says something
 * else (weighted samples, bytes, time), the same figure the tables' shares are of.
 */
function statusText(flame, unit, frames, noSizes) {
  const samples = flame.samples ?? flame.total;
  const weight = formatWeight(flame.total, unit);
  let text;
  if (unit === 'samples' && samples !== flame.total) text = `${weight} (in ${formatCount(samples)} weighted events)`;
  else if (unit === 'samples') text = weight;
  else text = `${weight} in ${formatCount(samples)} sample${samples === 1 ? '' : 's'}`;
  if (noSizes) text += ' (this recording\u2019s samples carry no object sizes)';
  return `${text} \u00b7 ${formatCount(frames)} frames`;
}

/** The side column: tabs for the hot methods and the call tree, and the filter both tables share. */
function sidePanel(right) {
  const tab = (which, text) => el('button', { type: 'button', role: 'tab', class: 'subtab', id: 'side-' + which, text,
    onclick: () => state.update({ side: which === 'tree' ? 'tree' : undefined }) });
  const tabs = { hot: tab('hot', 'Hot methods'), tree: tab('tree', 'Call tree') };
  const filter = el('input', { type: 'search', class: 'search side-filter', id: 'side-filter', spellcheck: 'false',
    placeholder: 'Filter methods', 'aria-label': 'Filter the table by method name' });
  let typing = 0;
  // typing replaces the history entry: one back step leaves the filter, not one per letter
  filter.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => state.update({ filter: filter.value.trim() || undefined }, { replace: true }), 200);
  });
  filter.addEventListener('keydown', e => { if (e.key === 'Escape' && filter.value) { filter.value = ''; filter.dispatchEvent(new Event('input')); } });
  const hotHolder = el('div', { class: 'side-table', id: 'side-hot-panel', role: 'tabpanel', 'aria-labelledby': 'side-hot' });
  const treeHolder = el('div', { class: 'side-table', id: 'side-tree-panel', role: 'tabpanel', 'aria-labelledby': 'side-tree' });
  right.append(el('div', { class: 'side-head' }, el('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Table' }, tabs.hot, tabs.tree), filter),
    hotHolder, treeHolder);
  return {
    hotHolder, treeHolder,
    show(which, text) {
      for (const [k, t] of Object.entries(tabs)) {
        t.setAttribute('aria-selected', String(k === which));
        t.tabIndex = k === which ? 0 : -1;
      }
      hotHolder.hidden = which !== 'hot';
      treeHolder.hidden = which !== 'tree';
      if (document.activeElement !== filter) filter.value = text || '';
    },
    destroy() { clearTimeout(typing); },
  };
}
