// Samples over time (D3 bars) with a brush that selects the time range of the flame graph.

import { el, d3Ready } from '../core/dom.js';

const HEIGHT = 84, MARGIN = { top: 6, right: 12, bottom: 20, left: 44 };

export class Timeline {
  /** onRange(fromMs, toMs) with times since the recording start, or (undefined, undefined) to clear. */
  constructor(container, { onRange }) {
    this.onRange = onRange;
    this.root = el('div', { class: 'timeline', id: 'timeline' });
    container.appendChild(this.root);
    this.quiet = false;
    this.svg = null;
    this.frame = 0;
    this.resizer = new ResizeObserver(() => {
      cancelAnimationFrame(this.frame);
      this.frame = requestAnimationFrame(() => { if (this.svg && this.data && this.root.clientWidth !== this.width) this.draw(); });
    });
    this.resizer.observe(this.root);
  }

  /** Stops following the container's size; a D3 still loading draws nothing. */
  destroy() {
    this.destroyed = true;
    this.resizer.disconnect();
    cancelAnimationFrame(this.frame);
  }

  /**
   * Loads D3 and draws; called once the page's main view has painted, so D3's download and its 280 KB of
   * script do not compete with the flame graph's data and code.
   */
  start() {
    this.started ??= d3Ready().then(() => {
      if (this.destroyed) return;
      this.svg = d3.select(this.root).append('svg').attr('role', 'img').attr('aria-label', 'Samples over time; drag to select a range');
      if (this.data) this.draw();
    });
    return this.started;
  }

  setData(bucketMillis, counts, durationMillis) {
    this.data = { bucketMillis, counts: counts || [], duration: durationMillis || (counts || []).length * bucketMillis };
    if (this.svg) this.draw();
  }

  draw() {
    const { bucketMillis, counts, duration } = this.data;
    const width = this.width = this.root.clientWidth || 800;
    const svg = this.svg.attr('width', width).attr('height', HEIGHT);
    svg.selectAll('*').remove();
    const x = this.x = d3.scaleLinear().domain([0, Math.max(duration, bucketMillis * counts.length, 1)])
      .range([MARGIN.left, width - MARGIN.right]);
    const y = d3.scaleLinear().domain([0, d3.max(counts) || 1]).nice().range([HEIGHT - MARGIN.bottom, MARGIN.top]);
    const barWidth = Math.max(1, x(bucketMillis) - x(0) - (x(bucketMillis) - x(0) > 3 ? 1 : 0));
    svg.append('g').attr('class', 'bars').selectAll('rect').data(counts).join('rect')
      .attr('x', (_, i) => x(i * bucketMillis)).attr('width', barWidth)
      .attr('y', d => y(d)).attr('height', d => y(0) - y(d));
    svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${HEIGHT - MARGIN.bottom})`)
      .call(d3.axisBottom(x).ticks(Math.max(2, Math.floor(width / 110))).tickFormat(timeTick(x.domain()[1])));
    svg.append('g').attr('class', 'axis').attr('transform', `translate(${MARGIN.left},0)`)
      .call(d3.axisLeft(y).ticks(Math.min(3, y.domain()[1])).tickFormat(d3.format('~s')));
    this.brush = d3.brushX().extent([[MARGIN.left, MARGIN.top], [width - MARGIN.right, HEIGHT - MARGIN.bottom]])
      .on('end', event => {
        if (this.quiet || !event.sourceEvent) return;
        if (!event.selection) { this.onRange(undefined, undefined); return; }
        const [a, b] = event.selection.map(x.invert);
        this.onRange(Math.max(0, Math.round(a)), Math.round(b));
      });
    this.brushGroup = svg.append('g').attr('class', 'brush').call(this.brush);
    this.moveBrush();
  }

  /** Moves the brush without reporting it back (used when the URL sets the range). */
  setRange(from, to) {
    this.range = from === undefined && to === undefined ? null : [from || 0, to];
    this.moveBrush();
  }

  moveBrush() {
    if (!this.brushGroup) return;
    const range = this.range && [this.range[0], this.range[1] ?? this.x.domain()[1]];
    this.quiet = true;
    this.brushGroup.call(this.brush.move, range ? range.map(this.x) : null);
    this.quiet = false;
  }
}

/** Axis labels in s, or in ms for recordings shorter than two seconds. */
export function timeTick(span) {
  return span < 2000 ? ms => d3.format('~r')(ms) + ' ms' : ms => d3.format('~r')(+(ms / 1000).toPrecision(6)) + ' s';
}
