// The runs of a service on one time axis (D3): a lane per run with its samples per bucket, one brush across all
// lanes that selects an absolute time range (epoch ms), and the baseline range of a comparison drawn as a band.

import { el, d3Ready, formatDate } from '../core/dom.js';

const LANE = 26, LABEL = 150, MARGIN = { top: 4, right: 12, bottom: 22 };

export class RunLanes {
  /**
   * onRange(fromMs, toMs) in epoch ms, or (undefined, undefined) when the brush is cleared; a run's name is a link to
   * hrefOf(run), followed by onOpen(run) on a plain click.
   */
  constructor(container, { onRange, hrefOf, onOpen }) {
    this.onRange = onRange;
    this.hrefOf = hrefOf;
    this.onOpen = onOpen;
    this.root = el('div', { class: 'run-lanes', id: 'run-lanes' });
    container.appendChild(this.root);
    this.resizer = new ResizeObserver(() => {
      cancelAnimationFrame(this.frame);
      this.frame = requestAnimationFrame(() => { if (this.svg && this.data && this.root.clientWidth !== this.width) this.draw(); });
    });
    this.resizer.observe(this.root);
    this.ready = d3Ready().then(() => {
      if (this.destroyed) return;
      this.svg = d3.select(this.root).append('svg').attr('role', 'img')
        .attr('aria-label', 'Samples of each run over time; drag across the lanes to select a time range');
      if (this.data) this.draw();
    });
  }

  destroy() {
    this.destroyed = true;
    this.resizer.disconnect();
    cancelAnimationFrame(this.frame);
  }

  /** data: the /api/timeline answer; kind: the lanes' kind; range, mark: [from, to] epoch ms or null. */
  set(data, kind, range, mark) {
    this.data = data;
    this.kind = kind;
    this.range = range;
    this.mark = mark;
    if (this.svg) this.draw();
  }

  draw() {
    const { data, kind } = this;
    const runs = data.runs;
    const width = this.width = this.root.clientWidth || 900;
    // the names' column narrower on a phone, so the lanes keep most of the width
    const label = Math.min(LABEL, Math.round(width * 0.25));
    const height = MARGIN.top + runs.length * LANE + MARGIN.bottom;
    const svg = this.svg.attr('width', width).attr('height', height);
    svg.selectAll('*').remove();
    const x = this.x = d3.scaleUtc().domain([new Date(data.from), new Date(data.to)]).range([label, width - MARGIN.right]);
    let max = 1;
    for (const r of runs) for (const c of (r.kinds[kind] || {}).counts || []) if (c > max) max = c;
    const step = (x(new Date(data.from + data.bucketMillis)) - x(new Date(data.from)));
    const lanes = svg.append('g').attr('class', 'lanes').selectAll('g').data(runs).join('g')
      .attr('class', 'run-lane').attr('data-id', r => r.id)
      .attr('transform', (_, i) => `translate(0,${MARGIN.top + i * LANE})`);
    lanes.append('rect').attr('class', 'run-lane-bg').attr('x', label).attr('width', width - MARGIN.right - label).attr('height', LANE - 4);
    // d3's text() sets textContent: run names are untrusted
    lanes.append('a').attr('class', 'run-lane-link').attr('href', r => this.hrefOf(r))
      .on('click', (event, r) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        this.onOpen(r);
      })
      .append('text').attr('class', 'run-lane-name').attr('x', label - 6).attr('y', LANE / 2).attr('dy', '0.2em')
      .attr('text-anchor', 'end').text(r => shorten(r.name || r.id))
      .append('title').text(r => `${r.name || r.id}\n${formatDate(r.startMillis)}`);
    // one path per lane: a bar per bucket with samples
    lanes.append('path').attr('class', 'run-lane-bars').attr('d', r => {
      const counts = (r.kinds[kind] || {}).counts || [];
      const h = LANE - 6, w = Math.max(1, step - (step > 3 ? 1 : 0));
      let d = '';
      for (let b = 0; b < counts.length; b++) {
        if (!counts[b]) continue;
        const bar = Math.max(1, h * counts[b] / max);
        d += `M${(label + b * step).toFixed(1)},${LANE - 4}h${w.toFixed(1)}v${(-bar).toFixed(1)}h${(-w).toFixed(1)}Z`;
      }
      return d;
    });
    const bottom = MARGIN.top + runs.length * LANE;
    svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${bottom})`)
      .call(d3.axisBottom(x).ticks(Math.max(2, Math.floor((width - label) / 120))));
    if (this.mark) {
      svg.append('rect').attr('class', 'run-mark').attr('id', 'run-mark').attr('x', x(new Date(this.mark[0])))
        .attr('width', Math.max(1, x(new Date(this.mark[1])) - x(new Date(this.mark[0])))).attr('y', MARGIN.top)
        .attr('height', bottom - MARGIN.top);
    }
    this.brush = d3.brushX().extent([[label, MARGIN.top], [width - MARGIN.right, bottom]])
      .on('end', event => {
        if (this.quiet || !event.sourceEvent) return;
        if (!event.selection) { this.onRange(undefined, undefined); return; }
        const [a, b] = event.selection.map(v => Math.round(+x.invert(v)));
        this.onRange(a, b);
      });
    this.brushGroup = svg.append('g').attr('class', 'brush').call(this.brush);
    this.quiet = true;
    this.brushGroup.call(this.brush.move, this.range ? this.range.map(t => x(new Date(t))) : null);
    this.quiet = false;
  }
}

function shorten(name) {
  return name.length > 22 ? name.slice(0, 21) + '\u2026' : name;
}
