// Heap page: findings, GC timeline (used before/after each GC, committed), GC pauses (brush a range: from/to), the
// classes growing over the GCs, pick a GC, and the live heap upscaled to that GC's used-after bytes, by class (table)
// and by allocation stack (flame graph), limited to the objects allocated in the brushed range. Compare links open
// the heap diff (pages/heapdiff.js) against another GC or recording.

import { el, clear, formatBytes, formatCount, formatPercent, toast, nameCell, d3Ready } from '../core/dom.js';
import { api } from '../core/api.js';
import * as state from '../core/state.js';
import { FlameTree } from '../flame/flametree.js';
import { FlamePanel } from '../flame/flamepanel.js';
import { recordingHeader, message, link, loading, onLeave, rangeProblem } from './common.js';
import { timeTick } from '../components/timeline.js';
import { drawPauses, drawPools, poolsCard } from '../components/gcview.js';
import { drawLiveSet, findingsCard, growingCard } from '../components/heapgrowth.js';
import { comparePicker } from '../components/comparepicker.js';

const HEIGHT = 190, M = { top: 10, right: 16, bottom: 24, left: 64 };

export async function mount(root, st, lifetime) {
  root.appendChild(loading());
  const [recording, heap] = await Promise.all([api.get(st.id), api.heap(st.id), d3Ready()]);
  if (lifetime.aborted) return { update() {} };
  clear(root);
  root.appendChild(recordingHeader(recording, [link('Flame graph', { page: 'recording', id: recording.id }, { class: 'button' })]));
  const gcs = heap.gcs || [];
  if (!gcs.length) {
    root.appendChild(message('No GC in this recording', 'The heap view needs jdk.GCHeapSummary / jdk.GarbageCollection events. Record with JFR enabled (the agent does this by default, or -XX:StartFlightRecording).'));
    return { update() {} };
  }
  const chartBox = el('div', { class: 'heap-chart', id: 'gc-chart' });
  const picker = el('select', { id: 'gc-select', 'aria-label': 'Pick a GC' },
    gcs.map((g, i) => el('option', { value: String(i), text: `${gcLabel(g, i)} \u00b7 ${g.name || ''} at ${(relative(g.startMillis) / 1000).toFixed(2)} s \u2014 ${formatBytes(g.usedAfter)} after` })));
  picker.addEventListener('change', () => state.update({ gc: picker.value }));
  // the heap diff against an earlier GC of this recording (the picked GC is the target)
  const compareGc = el('select', { id: 'compare-gc', 'aria-label': 'Compare with GC' },
    el('option', { value: '', text: 'Compare with GC\u2026' }),
    gcs.map((g, i) => el('option', { value: String(i), text: gcLabel(g, i) })));
  compareGc.addEventListener('change', () => {
    if (compareGc.value === '') return;
    state.update({ page: 'heapdiff', base: recording.id, baseGc: compareGc.value, id: recording.id, gc: String(selected) }, { reset: true });
  });
  const picking = comparePicker(recording, null, (base, target) => ({ page: 'heapdiff', base, id: target }));
  let findings = el('div', { class: 'heap-findings-slot' });
  root.appendChild(findings);
  root.appendChild(el('section', { class: 'card' },
    el('div', { class: 'timeline-head' }, el('span', { class: 'label', text: 'Heap around each GC' }),
      el('span', { class: 'legend-inline' }, el('span', { class: 'swatch used-before' }), 'used before',
        el('span', { class: 'swatch used-after' }), 'used after', el('span', { class: 'swatch committed' }), 'committed'),
      el('span', { class: 'spacer' }), el('label', { text: 'GC ' }, picker), compareGc, picking.root),
    chartBox));
  const pausesBox = el('div', { class: 'heap-chart pauses-chart', id: 'gc-pauses' });
  const rangeInfo = el('span', { class: 'range-info', id: 'heap-range' });
  const clearRange = el('button', { type: 'button', class: 'button small', id: 'heap-range-clear', text: 'All objects', hidden: true,
    onclick: () => state.update({ from: undefined, to: undefined }) });
  // the allocations in the brushed range: the recording page's allocation flame graph over the same from/to
  const rangeAllocations = el('button', { type: 'button', class: 'button small', id: 'heap-range-alloc', text: 'Allocations in this range',
    hidden: true, onclick: () => {
      const s = state.readState();
      state.update({ page: 'recording', id: recording.id, kind: 'alloc', from: s.from, to: s.to }, { reset: true });
    } });
  root.appendChild(el('section', { class: 'card' },
    el('div', { class: 'timeline-head' }, el('span', { class: 'label', text: 'GC pauses' }),
      el('span', { class: 'hint', text: ' drag across to show the live objects allocated in that range' }),
      el('span', { class: 'spacer' }), rangeInfo, rangeAllocations, clearRange),
    pausesBox));
  const pools = poolsCard(heap.pools);
  if (pools) root.appendChild(pools.root);
  const growthSlot = el('div', { id: 'growth-slot' });
  root.appendChild(growthSlot);
  const body = el('div', { class: 'heap-body' });
  root.appendChild(body);

  function relative(ms) { return ms - (recording.startMillis || (gcs[0] && gcs[0].startMillis) || 0); }
  let selected = -1, range = null;
  const times = gcs.map(g => relative(g.startMillis)).concat((heap.samples || []).map(s => relative(s.timeMillis)));
  const domain = [Math.min(0, ...times), Math.max(1, recording.durationMillis || 0, ...times)];
  let growth = null;
  const draw = () => {
    if (growth) drawLiveSet(growth, relative, domain);
    drawChart(chartBox, gcs, heap.samples || [], relative, domain, selected, i => state.update({ gc: String(i) }));
    if (pools) drawPools(pools.box, heap.pools, relative, domain);
    drawPauses(pausesBox, gcs, relative, domain, range,
      r => state.update(r ? { from: String(r[0]), to: String(Math.max(r[0], r[1])) } : { from: undefined, to: undefined }), gcLabel);
  };
  // the growth and findings come with the page (a recording without live samples still has its findings); by=stack
  // asks for a series per allocation site instead of per class
  let growthBy = null, growthSeq = 0;
  function loadGrowth(by) {
    if (by === growthBy) return;
    growthBy = by;
    const mine = ++growthSeq;
    api.growth(recording.id, by).then(answer => {
      if (lifetime.aborted || mine !== growthSeq) return;
      growth = answer;
      const card = findingsCard(growth);
      findings.replaceWith(card);
      findings = card;
      clear(growthSlot).appendChild(growingCard(growth, next => state.update({ by: next === 'stack' ? 'stack' : undefined })));
      drawLiveSet(growth, relative, domain);
    }, e => {
      if (!lifetime.aborted && mine === growthSeq) clear(growthSlot).appendChild(message('No growth over time', e.message));
    });
  }
  let drawnWidth = 0, frame = 0;
  const resizer = new ResizeObserver(() => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => { if (chartBox.clientWidth !== drawnWidth) { drawnWidth = chartBox.clientWidth; draw(); } });
  });
  resizer.observe(chartBox);

  let seq = 0, dataKey = null, panel = null, current = st;
  onLeave(lifetime, () => {
    seq++; // a live heap still loading is dropped
    resizer.disconnect();
    cancelAnimationFrame(frame);
    if (panel) panel.destroy();
    picking.destroy();
  });
  async function update(s) {
    current = s;
    loadGrowth(s.by === 'stack' ? 'stack' : undefined);
    const gc = s.gc !== undefined ? Math.min(gcs.length - 1, Math.max(0, Number(s.gc) | 0)) : gcs.length - 1;
    selected = gc;
    picker.value = String(gc);
    const problem = rangeProblem(s, recording);
    range = !problem && (s.from !== undefined || s.to !== undefined)
      ? [Number(s.from || 0), s.to !== undefined ? Number(s.to) : domain[1]] : null;
    rangeInfo.textContent = problem ? problem.text
      : range ? `Objects allocated ${(range[0] / 1000).toFixed(2)}\u2013${(range[1] / 1000).toFixed(2)} s` : '';
    clearRange.hidden = !range && !problem;
    rangeAllocations.hidden = !range || !(recording.kinds && recording.kinds.alloc);
    draw();
    const key = [gc, range && range[0], range && range[1]].join('|');
    if (dataKey === key) { if (panel) panel.apply(s); return; }
    dataKey = key;
    const mine = ++seq;
    const hasLive = heap.liveSamples > 0 || (recording.heap && recording.heap.hasLive);
    let live = { liveSamples: 0 };
    if (hasLive) {
      try {
        live = await api.live(recording.id, gc, range ? s.from : undefined, range ? s.to : undefined);
      } catch (e) { if (mine === seq) { toast(e.message, true); dataKey = null; } return; }
    }
    if (mine !== seq) return;
    clear(body);
    if (panel) panel.destroy();
    panel = null;
    if (!live.liveSamples && hasLive) {
      // a sample counts at a GC only where it is known alive there: an early GC may have none
      body.appendChild(message('No live-object sample is known alive at this GC',
        'A sample counts at a GC when it was allocated before it and a collection at or after it still found it'
        + ' alive. Pick a later GC on the chart.'));
      return;
    }
    if (!live.liveSamples) {
      body.appendChild(message('No live-object samples in this recording',
        'The live heap needs allocation samples that are tracked until GC frees them. Record them with one of:',
        [el('code', { text: '-javaagent:agent.jar=alloc=512k,live=true' }), ' our agent (live=true is its default)'],
        [el('code', { text: 'asprof -e alloc --live -f recording.jfr <pid>' }), ' async-profiler, or as an agent: ',
          el('code', { text: '-agentpath:libasyncProfiler.so=start,event=alloc,live,file=recording.jfr' })],
        [el('code', { text: '-XX:StartFlightRecording:settings=profile' }), ' JDK Flight Recorder\u2019s jdk.OldObjectSample (fewer samples)']));
      return;
    }
    body.appendChild(el('p', { class: 'status-line', id: 'live-summary',
      text: `Live heap after ${gcLabel(live.gc || gcs[gc], gc)}: ${formatBytes(live.usedAfter)} used, `
        + (live.counted ? `the JVM counted its classes at this GC exactly; the classes under its count's threshold in proportion to ${formatCount(live.liveSamples)} surviving allocation samples.`
          : live.carriedBytes > 0 ? `${formatBytes(live.carriedBytes)} of it older objects of the classes the JVM counted at an earlier GC, the rest in proportion to ${formatCount(live.liveSamples)} surviving allocation samples.`
            : `attributed in proportion to ${formatCount(live.liveSamples)} surviving allocation samples.`)
        + (range ? ` Shown: the ${formatCount(live.rangeSamples)} allocated in the selected range, ${formatBytes(live.rangeBytes)}.` : '') }));
    const grid = el('div', { class: 'flame-grid' });
    const left = el('div', { class: 'flame-col' }), right = el('aside', { class: 'side-col' });
    grid.append(left, right);
    body.appendChild(grid);
    right.appendChild(classTable(live.byClass || []));
    if (live.flame && live.flame.names) {
      panel = new FlamePanel(left, { unit: 'bytes', fileName: `${recording.name || recording.id}-live-gc${gc}` });
      panel.show(new FlameTree(live.flame.names, live.flame.nodes), current);
    }
  }
  await update(st);
  return { update };
}

/**
 * A GC's name on this page: its number in the recording's GC list, which the address (gc=) and export names use
 * too, and the JVM's own GC id (what its GC log says) beside it when that differs.
 */
export function gcLabel(g, index) {
  const id = g && g.gcId >= 0 && g.gcId !== index ? ` (JVM GC id ${g.gcId})` : '';
  return `GC ${index}${id}`;
}

function classTable(rows) {
  const body = el('tbody');
  for (const r of rows.slice(0, 300)) {
    body.appendChild(el('tr', {}, nameCell(r.class),
      el('td', { class: 'num', text: formatBytes(r.bytes) }), el('td', { class: 'num', text: formatPercent(r.share) }),
      el('td', { class: 'num', text: formatCount(r.samples) }),
      el('td', { class: 'num error', text: r.error ? `\u00b1${Math.round(r.error * 100)}%` : r.error === 0 ? 'exact' : '',
        title: r.carriedBytes > 0 ? `${formatBytes(r.carriedBytes)} of older objects, as counted at an earlier GC` : undefined })));
  }
  return el('div', { class: 'table-scroll' }, el('table', { class: 'data', id: 'live-classes' },
    el('caption', { text: 'Live heap by class' }),
    el('thead', {}, el('tr', {}, el('th', { text: 'Class' }), el('th', { class: 'num', text: 'Bytes' }),
      el('th', { class: 'num', text: 'Share' }), el('th', { class: 'num', text: 'Samples' }),
      el('th', { class: 'num', text: '\u00b1', title: 'sampling error of the bytes: 1/\u221asamples' }))), body));
}

function drawChart(box, gcs, samples, relative, domain, selected, onPick) {
  const width = box.clientWidth || 800;
  d3.select(box).selectAll('*').remove();
  const svg = d3.select(box).append('svg').attr('width', width).attr('height', HEIGHT).attr('role', 'img')
    .attr('aria-label', 'Heap used before and after each GC, and committed heap');
  const x = d3.scaleLinear().domain(domain).range([M.left, width - M.right]);
  const top = d3.max([...gcs.map(g => Math.max(g.usedBefore || 0, g.committed || 0)), ...samples.map(s => Math.max(s.used || 0, s.committed || 0))]) || 1;
  const y = d3.scaleLinear().domain([0, top]).nice().range([HEIGHT - M.bottom, M.top]);
  svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${HEIGHT - M.bottom})`)
    .call(d3.axisBottom(x).ticks(Math.floor(width / 110)).tickFormat(timeTick(x.domain()[1] - x.domain()[0])));
  svg.append('g').attr('class', 'axis').attr('transform', `translate(${M.left},0)`).call(d3.axisLeft(y).ticks(4).tickFormat(formatBytes));
  const committed = gcs.filter(g => g.committed > 0).map(g => [relative(g.startMillis), g.committed]);
  if (committed.length) svg.append('path').attr('class', 'committed-line').attr('d', d3.line().curve(d3.curveStepAfter).x(d => x(d[0])).y(d => y(d[1]))(committed));
  const saw = [];
  for (const g of gcs) { const t = relative(g.startMillis); saw.push([t, g.usedBefore], [t + (g.durationMillis || 0), g.usedAfter]); }
  svg.append('path').attr('class', 'used-line').attr('d', d3.line().x(d => x(d[0])).y(d => y(d[1]))(saw));
  const marks = svg.append('g').selectAll('g').data(gcs).join('g')
    .attr('class', (_, i) => 'gc' + (i === selected ? ' selected' : ''))
    .attr('transform', g => `translate(${x(relative(g.startMillis))},0)`)
    .on('click', (_, g) => onPick(gcs.indexOf(g)));
  marks.append('rect').attr('class', 'gc-hit').attr('x', -4).attr('width', 8).attr('y', M.top).attr('height', HEIGHT - M.top - M.bottom);
  marks.append('circle').attr('class', 'before').attr('r', 3).attr('cy', g => y(g.usedBefore || 0));
  marks.append('circle').attr('class', 'after').attr('r', 3.5).attr('cy', g => y(g.usedAfter || 0));
  marks.append('title').text(g => `${gcLabel(g, gcs.indexOf(g))} ${g.name || ''} (${g.cause || ''}): ${formatBytes(g.usedBefore)} \u2192 ${formatBytes(g.usedAfter)}`);
}
