// The heap page's findings and its "Growing" table: the live set's growth, GC time and pauses, the allocation rate
// (each a number), and the classes whose live bytes grow over the recording's GCs, each with a sparkline of its
// series and the allocation stack that holds most of it (GET /api/recordings/{id}/heap/growth, docs/live-heap.md).

import { el, formatBytes, formatCount, formatPercent, nameCell } from '../core/dom.js';
import { timeTick } from './timeline.js';

/** Lines of the live-set chart: the heaviest growing classes, each its own colour class (app.css, both schemes). */
const LINES = 5;
const HEIGHT = 170, M = { top: 10, right: 16, bottom: 24, left: 64 };

/** Bytes per second as a rate the eye reads: per minute when small. */
export function formatRate(bytesPerSecond) {
  const sign = bytesPerSecond < 0 ? '\u2212' : '+';
  const abs = Math.abs(bytesPerSecond);
  return abs * 60 < 1024 * 1024 * 10 && abs < 1024 * 100
    ? `${sign}${formatBytes(Math.round(abs * 60))}/min` : `${sign}${formatBytes(Math.round(abs))}/s`;
}

/** The findings, one line each, every figure stated. */
export function findingsCard(growth) {
  const f = growth.findings || {};
  const lines = [];
  if (growth.gcs && growth.gcs.length > 1) {
    const perMinute = f.liveSetBytesPerMinute || 0;
    lines.push(el('li', { class: 'finding-live' }, el('strong', { text: 'Live set ' }),
      `${perMinute < 0 ? 'shrinks' : 'grows'} ${formatBytes(Math.round(Math.abs(perMinute)))} per minute`
      + ` (heap used after GC, least-squares over ${formatCount(growth.gcs.length)} GCs)`));
  }
  if (f.gcs) {
    const longest = (f.longestPauses || [])[0];
    lines.push(el('li', { class: 'finding-gc' }, el('strong', { text: 'GC ' }),
      `${formatPercent(f.gcTimeShare || 0)} of the time in ${formatCount(f.gcs)} collections`
      + (longest ? `; longest pause ${(longest.pauseNanos / 1e6).toFixed(1)} ms (GC ${longest.index}, ${longest.name || '?'}, ${longest.cause || '?'})` : '')
      + ((f.longestPauses || []).length > 1 ? `; next ${f.longestPauses.slice(1).map(p => (p.pauseNanos / 1e6).toFixed(1) + ' ms').join(', ')}` : '')));
  }
  if (f.allocationBytesPerSecond >= 0) {
    const stacks = (f.topAllocationStacks || []).slice(0, 3);
    lines.push(el('li', { class: 'finding-alloc' }, el('strong', { text: 'Allocation ' }),
      `${formatBytes(Math.round(f.allocationBytesPerSecond))}/s from ${formatCount(f.allocationSamples)} samples`
      + (stacks.length ? '; most by:' : ''),
      stacks.length ? el('ol', { class: 'finding-stacks', id: 'finding-alloc-stacks' }, stacks.map(t => el('li', {
        title: t.stack.join('\n'),
        text: `${t.stack.length ? t.stack[t.stack.length - 1] : '[no stack]'} (${t.class}): ${formatPercent(t.share)}, ${formatBytes(Math.round(t.bytes / (f.seconds || 1)))}/s` }))) : null));
  }
  const first = (growth.suspects || [])[0];
  if (first && first.bytesPerSecond > 0 && first.confidence >= 0.9) {
    lines.push(el('li', { class: 'finding-suspect' }, el('strong', { text: 'Suspect ' }),
      `${first.class} grows ${formatRate(first.bytesPerSecond)} (confidence ${first.confidence.toFixed(2)})`
      + (first.stack.length ? `, allocated by ${first.stack[first.stack.length - 1]}` : '')));
  }
  return el('section', { class: 'card findings', id: 'heap-findings' }, el('span', { class: 'label', text: 'Findings' }),
    el('ul', { class: 'findings-list' }, lines));
}

/** A suspect's live samples, and the GCs at which the JVM counted its class where it did. */
function samplesCell(s) {
  if (!s.countedPoints) return el('td', { class: 'num', text: formatCount(s.samples) });
  return el('td', { class: 'num samples-counted', title: `${formatCount(s.samples)} live samples; the JVM counted the class at ${formatCount(s.countedPoints)} of the GCs`,
    text: `${formatCount(s.samples)} \u00b7 ${formatCount(s.countedPoints)} counted` });
}

/**
 * The "Growing" table: suspects ranked by growth, a sparkline each, a row's stack opening under it; onBy('class' |
 * 'stack') switches between a series per class and one per allocation site.
 */
export function growingCard(growth, onBy) {
  const bySite = growth.by === 'stack';
  const body = el('tbody');
  const suspects = growth.suspects || [];
  suspects.forEach((s, i) => {
    const stackRow = el('tr', { class: 'growth-stack', id: 'growth-stack-' + i, hidden: true },
      el('td', { colspan: '7' }, el('ol', { class: 'stack-frames' },
        s.stack.length ? s.stack.map(f => el('li', { text: f })) : el('li', { text: '[no stack]' }),
        el('li', { class: 'stack-class', text: s.class })),
        el('p', { class: 'hint', text: s.samples
          ? `${formatCount(s.stackSamples)} of its ${formatCount(s.samples)} live samples were allocated here (root first).`
          : 'No live sample holds it: its bytes are the JVM\u2019s counts, so no allocation stack is known.' })));
    const toggle = el('button', { type: 'button', class: 'button small growth-open', 'aria-expanded': 'false',
      'aria-controls': 'growth-stack-' + i, text: 'stack' });
    toggle.addEventListener('click', () => {
      stackRow.hidden = !stackRow.hidden;
      toggle.setAttribute('aria-expanded', String(!stackRow.hidden));
    });
    body.append(el('tr', { class: 'growth-row' + (s.bytesPerSecond > 0 && s.confidence >= 0.9 ? ' growing' : '') },
      siteCell(s, bySite),
      el('td', { class: 'spark' }, sparkline(s.series)),
      el('td', { class: 'num', text: formatRate(s.bytesPerSecond) }),
      el('td', { class: 'num', text: `${formatBytes(s.firstBytes)} \u2192 ${formatBytes(s.lastBytes)}` }),
      el('td', { class: 'num', title: `p = ${s.pValue.toExponential(2)}, R\u00b2 = ${s.rSquared.toFixed(3)}`, text: s.confidence.toFixed(2) }),
      samplesCell(s), el('td', {}, toggle)), stackRow);
  });
  const warnings = (growth.warnings || []).map(w => el('p', { class: 'hint', text: w }));
  const chart = el('div', { class: 'heap-chart live-set-chart', id: 'live-set-chart' });
  const legend = el('div', { class: 'legend-inline', id: 'live-set-legend' },
    el('span', { class: 'swatch live-total' }), 'heap used after GC',
    suspects.slice(0, LINES).map((s, i) => [el('span', { class: 'swatch line-' + i }), s.class]));
  const by = el('select', { id: 'growth-by', 'aria-label': 'A series per' },
    el('option', { value: 'class', text: 'per class' }), el('option', { value: 'stack', text: 'per allocation stack' }));
  by.value = bySite ? 'stack' : 'class';
  by.addEventListener('change', () => onBy(by.value));
  return el('section', { class: 'card growing', id: 'growth' },
    el('div', { class: 'timeline-head' }, el('span', { class: 'label', text: 'Growing' }),
      el('span', { class: 'hint', text: ` live bytes at each GC, fitted over time; ${formatCount(growth.classes || 0)} ${bySite ? 'allocation sites' : 'classes'}` }),
      el('span', { class: 'spacer' }), by),
    warnings, suspects.length ? [legend, chart] : null,
    suspects.length ? el('div', { class: 'table-scroll' }, el('table', { class: 'data', id: 'growth-table' },
      el('thead', {}, el('tr', {}, el('th', { text: 'Class' }), el('th', { text: 'Live bytes at each GC' }),
        el('th', { class: 'num', text: 'Growth' }), el('th', { class: 'num', text: 'First \u2192 last' }),
        el('th', { class: 'num', text: 'Confidence', title: '(1 - one-sided p of the slope) \u00d7 (1 - 1/\u221asamples); the second factor 1 for a class the JVM counted' }),
        el('th', { class: 'num', text: 'Samples' }), el('th', { text: '' }))), body))
      : el('p', { class: 'hint', text: 'No class to follow over time.' }));
}

/**
 * The live set over time into the Growing card's chart: the heap used after each GC and the upscaled live bytes of
 * the first suspects at each GC, on the time axis of the page's other charts (domain, ms since the recording's start).
 */
export function drawLiveSet(growth, relative, domain) {
  const box = document.getElementById('live-set-chart');
  if (!box) return;
  const width = box.clientWidth || 800;
  d3.select(box).selectAll('*').remove();
  const svg = d3.select(box).append('svg').attr('width', width).attr('height', HEIGHT).attr('role', 'img')
    .attr('aria-label', 'Live bytes of the growing classes at each GC, and the heap used after each GC');
  const total = (growth.gcs || []).filter(g => g.usedAfter >= 0).map(g => [relative(g.timeMillis), g.usedAfter]);
  const lines = (growth.suspects || []).slice(0, LINES).map(s => s.series.map(([t, b]) => [relative(t), b]));
  const x = d3.scaleLinear().domain(domain).range([M.left, width - M.right]);
  const top = d3.max([...total, ...lines.flat()], d => d[1]) || 1;
  const y = d3.scaleLinear().domain([0, top]).nice().range([HEIGHT - M.bottom, M.top]);
  svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${HEIGHT - M.bottom})`)
    .call(d3.axisBottom(x).ticks(Math.floor(width / 110)).tickFormat(timeTick(domain[1] - domain[0])));
  svg.append('g').attr('class', 'axis').attr('transform', `translate(${M.left},0)`).call(d3.axisLeft(y).ticks(4).tickFormat(formatBytes));
  const line = d3.line().x(d => x(d[0])).y(d => y(d[1]));
  svg.append('path').attr('class', 'live-total').attr('d', line(total));
  lines.forEach((points, i) => svg.append('path').attr('class', 'class-line line-' + i).attr('d', line(points)));
}

/** The class, and in a series per site the frame that allocated it. */
function siteCell(s, bySite) {
  const cell = nameCell(s.class);
  if (bySite) cell.appendChild(el('small', { class: 'site', text: ' at ' + (s.stack.length ? s.stack[s.stack.length - 1] : '[no stack]') }));
  return cell;
}

const SVG = 'http://www.w3.org/2000/svg';

/** A 120 x 24 line of [[timeMillis, bytes], ...], its own scale (the table's figures give the size). */
function sparkline(series) {
  const width = 120, height = 24;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('width', width);
  svg.setAttribute('height', height);
  svg.setAttribute('class', 'sparkline');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'Live bytes at each GC');
  if (!series || series.length < 2) return svg;
  const t0 = series[0][0], t1 = series[series.length - 1][0] || t0 + 1;
  const top = Math.max(1, ...series.map(p => p[1]));
  const points = series.map(([t, b]) =>
    `${(2 + (t - t0) / Math.max(1, t1 - t0) * (width - 4)).toFixed(1)},${(height - 2 - b / top * (height - 4)).toFixed(1)}`);
  const path = document.createElementNS(SVG, 'polyline');
  path.setAttribute('points', points.join(' '));
  svg.appendChild(path);
  return svg;
}
