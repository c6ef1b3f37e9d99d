// The heap page's GC view: pauses over time, a bar per collection as tall as its longest pause (its duration where
// the recording states no pause), with its collector and cause in the tooltip, where brushing a range selects the
// objects allocated in it (the page's from/to); and the memory pools' usage after each GC, where the recording has it.

import { el, formatBytes, formatDuration } from '../core/dom.js';
import { timeTick } from './timeline.js';

const HEIGHT = 120, M = { top: 8, right: 16, bottom: 22, left: 64 };

/** A collection's pause in milliseconds. */
export function pauseMillis(g) {
  return g.longestPauseNanos >= 0 ? g.longestPauseNanos / 1e6 : Math.max(0, g.durationMillis || 0);
}

/**
 * Draws into box; domain is the time axis [from, to] in ms since the recording's start (the heap chart's), range the
 * selected [from, to] or null, onRange(null | [from, to]) called when the user brushes or clears; label(g, index)
 * names a GC.
 */
export function drawPauses(box, gcs, relative, domain, range, onRange, label) {
  const width = box.clientWidth || 800;
  d3.select(box).selectAll('*').remove();
  const svg = d3.select(box).append('svg').attr('width', width).attr('height', HEIGHT).attr('role', 'img')
    .attr('aria-label', 'GC pauses over time; drag to select the objects allocated in a range');
  const x = d3.scaleLinear().domain(domain).range([M.left, width - M.right]);
  const top = d3.max(gcs, pauseMillis) || 1;
  const y = d3.scaleLinear().domain([0, top]).nice().range([HEIGHT - M.bottom, M.top]);
  svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${HEIGHT - M.bottom})`)
    .call(d3.axisBottom(x).ticks(Math.floor(width / 110)).tickFormat(timeTick(domain[1] - domain[0])));
  svg.append('g').attr('class', 'axis').attr('transform', `translate(${M.left},0)`)
    .call(d3.axisLeft(y).ticks(3).tickFormat(v => v + ' ms'));
  const brush = d3.brushX().extent([[M.left, M.top], [width - M.right, HEIGHT - M.bottom]])
    .on('end', e => {
      if (!e.sourceEvent) return; // moved by the page, not the user
      if (!e.selection) onRange(null);
      else onRange(e.selection.map(v => Math.max(0, Math.round(x.invert(v)))));
    });
  const brushing = svg.append('g').attr('class', 'brush').call(brush);
  if (range) brushing.call(brush.move, [x(range[0]), x(range[1])]);
  // the bars above the brush so their tooltips show; they are thin, so a drag mostly starts beside them
  const bars = svg.append('g').attr('class', 'pauses').selectAll('rect').data(gcs).join('rect')
    .attr('class', 'pause')
    .attr('x', g => x(relative(g.startMillis)) - 1.5)
    .attr('width', g => Math.max(3, x(relative(g.startMillis) + (g.durationMillis || 0)) - x(relative(g.startMillis))))
    .attr('y', g => y(pauseMillis(g)))
    .attr('height', g => Math.max(1, y(0) - y(pauseMillis(g))));
  bars.append('title').text(g => `${label(g, gcs.indexOf(g))} at ${formatDuration(relative(g.startMillis))}: `
    + `${g.name || '?'} (${g.cause || '?'}), pause ${pauseMillis(g).toFixed(1)} ms`);
}

const POOLS_HEIGHT = 150;

/** A legend and a box for the pools chart ({root, box}); null when the recording states no pool. */
export function poolsCard(pools) {
  if (!pools || !pools.length) return null;
  const box = el('div', { class: 'heap-chart pools-chart', id: 'gc-pools' });
  const root = el('section', { class: 'card' },
    el('div', { class: 'timeline-head' }, el('span', { class: 'label', text: 'Memory pools after each GC' }),
      el('span', { class: 'legend-inline', id: 'gc-pools-legend' },
        pools.map((p, i) => [el('span', { class: 'swatch pool-' + (i % 6) }), p.pool]))),
    box);
  return { root, box };
}

/** A line per pool of its used bytes after each GC, on the page's time axis. */
export function drawPools(box, pools, relative, domain) {
  const width = box.clientWidth || 800;
  d3.select(box).selectAll('*').remove();
  const svg = d3.select(box).append('svg').attr('width', width).attr('height', POOLS_HEIGHT).attr('role', 'img')
    .attr('aria-label', 'Each memory pool\u2019s used bytes after each GC');
  const x = d3.scaleLinear().domain(domain).range([M.left, width - M.right]);
  const series = pools.map(p => p.after.filter(r => r[1] >= 0).map(r => [relative(r[0]), r[1]]));
  const top = d3.max(series.flat(), d => d[1]) || 1;
  const y = d3.scaleLinear().domain([0, top]).nice().range([POOLS_HEIGHT - M.bottom, M.top]);
  svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${POOLS_HEIGHT - M.bottom})`)
    .call(d3.axisBottom(x).ticks(Math.floor(width / 110)).tickFormat(timeTick(domain[1] - domain[0])));
  svg.append('g').attr('class', 'axis').attr('transform', `translate(${M.left},0)`).call(d3.axisLeft(y).ticks(3).tickFormat(formatBytes));
  const line = d3.line().x(d => x(d[0])).y(d => y(d[1]));
  series.forEach((points, i) => svg.append('path').attr('class', 'pool-line pool-' + (i % 6)).attr('d', line(points))
    .append('title').text(pools[i].pool));
}
