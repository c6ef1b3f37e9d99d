// Canvas flame graph: draws only frames at least a fraction of a pixel wide and skips the whole subtree
// of narrower ones, so a 100k-node tree zooms in a few milliseconds. Text goes through fillText only.

import { el } from '../core/dom.js';
import { frameColor, MATCH_COLOR, ROOT_COLOR, ANCESTOR_ALPHA } from './colors.js';

const ROW = 18;
const MIN_WIDTH = 0.35;
const FONT = '12px ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace';
const MAX_ROWS = 1200;

export class FlameGraph {
  /**
   * @param container  element to draw into
   * @param options    {onZoom(node), describe(node) -> [[label, value]...], colorOf(node) -> css colour}
   */
  constructor(container, options = {}) {
    this.options = options;
    this.tree = null;
    this.zoom = 0;
    this.hit = null;
    this.inverted = false;
    this.canvas = el('canvas', { class: 'flame-canvas', tabindex: '0', role: 'img',
      'aria-label': 'Flame graph. Click a frame to zoom, Escape to reset, U to zoom out.' });
    this.tooltip = el('div', { class: 'flame-tooltip', role: 'tooltip', hidden: true });
    this.root = el('div', { class: 'flame' }, this.canvas, this.tooltip);
    container.appendChild(this.root);
    this.ctx = this.canvas.getContext('2d');
    this.canvas.addEventListener('mousemove', e => this.hover(e));
    this.canvas.addEventListener('mouseleave', () => { this.tooltip.hidden = true; });
    this.canvas.addEventListener('click', e => {
      const node = this.nodeAt(e);
      if (node >= 0) this.select(node);
    });
    this.canvas.addEventListener('keydown', e => {
      if ((e.key === 'u' || e.key === 'Backspace') && this.zoom > 0) { e.preventDefault(); this.select(this.tree.parent[this.zoom]); }
    });
    this.width = 0;
    // redraw in the next frame, not inside the observer, so a scrollbar appearing cannot loop the observer
    this.frame = 0;
    this.resizer = new ResizeObserver(() => {
      cancelAnimationFrame(this.frame);
      this.frame = requestAnimationFrame(() => {
        const w = this.root.clientWidth;
        if (w && w !== this.width && this.tree) this.render();
      });
    });
    this.resizer.observe(this.root);
  }

  /** Stops following the container's size and lets go of the tree and the canvas's pixels; nothing is drawn after. */
  destroy() {
    this.resizer.disconnect();
    cancelAnimationFrame(this.frame);
    this.tree = null;
    // a tall graph's canvas holds tens of megabytes until the element is collected
    this.canvas.width = this.canvas.height = 0;
  }

  setTree(tree, { inverted = false } = {}) {
    this.tree = tree;
    this.colors = new Array(tree.names.length);
    this.inverted = inverted;
    this.zoom = 0;
    this.hit = null;
  }

  setSearch(result) { this.hit = result ? result.hit : null; }

  setZoom(node) { this.zoom = node > 0 && node < this.tree.size ? node : 0; }

  select(node) {
    this.setZoom(node);
    this.render();
    if (this.options.onZoom) this.options.onZoom(this.zoom);
  }

  /** Rows shown: ancestors of the zoomed node, then its subtree down to its deepest frame. */
  rows() {
    const t = this.tree;
    let deepest = t.depth[this.zoom];
    const end = this.zoom + t.count[this.zoom];
    for (let i = this.zoom; i < end; i++) if (t.depth[i] > deepest) deepest = t.depth[i];
    return Math.min(deepest + 1, MAX_ROWS);
  }

  rowY(depth, rows) { return this.inverted ? depth * ROW : (rows - 1 - depth) * ROW; }

  render() {
    const started = performance.now();
    const t = this.tree;
    if (!t) return 0;
    const width = this.root.clientWidth || 800;
    const rows = this.rows();
    const height = rows * ROW;
    const dpr = window.devicePixelRatio || 1;
    if (this.width !== width || this.height !== height || this.dpr !== dpr) {
      this.canvas.width = Math.round(width * dpr);
      this.canvas.height = Math.round(height * dpr);
      this.canvas.style.width = width + 'px';
      this.canvas.style.height = height + 'px';
      this.width = width; this.height = height; this.dpr = dpr;
    }
    const ctx = this.ctx;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    if (!this.charWidth) this.charWidth = ctx.measureText('MMMMMMMMMM').width / 10;

    const z = this.zoom;
    const scale = t.total[z] > 0 ? width / t.total[z] : 0;
    const x0 = t.x[z];
    ctx.globalAlpha = ANCESTOR_ALPHA;
    for (let a = t.parent[z]; a >= 0; a = t.parent[a]) this.drawFrame(a, 0, width, rows);
    ctx.globalAlpha = 1;
    const end = z + t.count[z];
    let drawn = 0;
    for (let i = z; i < end;) {
      const w = t.total[i] * scale;
      if (w < MIN_WIDTH || t.depth[i] >= MAX_ROWS) { i += t.count[i]; continue; }
      this.drawFrame(i, (t.x[i] - x0) * scale, w, rows);
      drawn++;
      i++;
    }
    this.drawn = drawn;
    this.lastRenderMs = performance.now() - started;
    this.canvas.dataset.zoom = String(z);
    this.canvas.dataset.drawn = String(drawn);
    // the page's first drawn graph: DevTools and the flame graph benchmark read it as the first paint
    if (!performance.getEntriesByName('workbench:drawn', 'mark').length) performance.mark('workbench:drawn');
    if (!this.inverted && this.scrolledFor !== this.tree) {
      // a flame graph grows upwards from its root: start scrolled to the root
      this.scrolledFor = this.tree;
      const box = this.root.parentElement;
      if (box) box.scrollTop = box.scrollHeight;
    }
    return this.lastRenderMs;
  }

  colorOf(i) {
    const t = this.tree;
    if (this.hit && this.hit[i]) return MATCH_COLOR;
    if (i === 0) return ROOT_COLOR;
    if (this.options.colorOf) return this.options.colorOf(i);
    const key = t.name[i];
    return this.colors[key] || (this.colors[key] = frameColor(t.type[i], t.names[key]));
  }

  drawFrame(i, x, w, rows) {
    const ctx = this.ctx, t = this.tree;
    const y = this.rowY(t.depth[i], rows);
    ctx.fillStyle = this.colorOf(i);
    ctx.fillRect(x, y, w > 1.5 ? w - 0.5 : w, ROW - 1);
    if (w < 28) return;
    const name = t.nameOf(i);
    const room = Math.floor((w - 6) / this.charWidth);
    const text = name.length <= room ? name : room > 2 ? name.slice(0, room - 1) + '\u2026' : '';
    if (!text) return;
    ctx.fillStyle = '#1b1e24';
    ctx.fillText(text, x + 3, y + ROW / 2);
  }

  /** The node under the pointer: walk down from the zoomed node (or up for the ancestor rows). */
  nodeAt(event) {
    const t = this.tree;
    if (!t) return -1;
    const rect = this.canvas.getBoundingClientRect();
    const px = event.clientX - rect.left, py = event.clientY - rect.top;
    const rows = Math.round(this.height / ROW);
    const row = Math.floor(py / ROW);
    const depth = this.inverted ? row : rows - 1 - row;
    if (depth < 0 || px < 0 || px > this.width) return -1;
    const zd = t.depth[this.zoom];
    if (depth < zd) {
      let a = this.zoom;
      while (t.depth[a] > depth) a = t.parent[a];
      return a;
    }
    const scale = this.width / t.total[this.zoom];
    const target = t.x[this.zoom] + px / scale;
    let node = this.zoom;
    while (t.depth[node] < depth) {
      const end = node + t.count[node];
      let next = -1;
      for (let c = node + 1; c < end; c += t.count[c]) {
        if (target >= t.x[c] && target < t.x[c] + t.total[c]) { next = c; break; }
      }
      if (next < 0) return -1;
      node = next;
    }
    return t.total[node] * scale >= MIN_WIDTH ? node : -1;
  }

  hover(event) {
    const node = this.nodeAt(event);
    if (node < 0) { this.tooltip.hidden = true; this.canvas.style.cursor = ''; return; }
    this.canvas.style.cursor = 'pointer';
    const tip = this.tooltip;
    while (tip.firstChild) tip.removeChild(tip.firstChild);
    tip.appendChild(el('div', { class: 'tip-name', text: this.tree.nameOf(node) }));
    const rows = this.options.describe ? this.options.describe(node) : [];
    for (const [label, value] of rows) tip.appendChild(el('div', { class: 'tip-row' }, el('span', { text: label }), el('b', { text: value })));
    tip.hidden = false;
    // fixed to the viewport so the scrolling graph box cannot clip it
    let left = event.clientX + 14, top = event.clientY + 14;
    if (left + tip.offsetWidth > window.innerWidth - 8) left = Math.max(4, event.clientX - tip.offsetWidth - 10);
    if (top + tip.offsetHeight > window.innerHeight - 8) top = Math.max(4, event.clientY - tip.offsetHeight - 10);
    tip.style.left = left + 'px';
    tip.style.top = top + 'px';
  }

  /** Visible frames as SVG, built with DOM calls so names stay text. */
  toSvg(title) {
    const t = this.tree, ns = 'http://www.w3.org/2000/svg';
    const width = this.width, rows = Math.round(this.height / ROW);
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('xmlns', ns);
    svg.setAttribute('width', width);
    svg.setAttribute('height', this.height + 24);
    svg.setAttribute('font-family', 'monospace');
    svg.setAttribute('font-size', '12');
    const heading = document.createElementNS(ns, 'text');
    heading.setAttribute('x', 4); heading.setAttribute('y', 16);
    heading.textContent = title;
    svg.appendChild(heading);
    const z = this.zoom, scale = width / t.total[z], x0 = t.x[z];
    const frame = (i, x, w) => {
      const g = document.createElementNS(ns, 'g');
      const y = this.rowY(t.depth[i], rows) + 24;
      const rect = document.createElementNS(ns, 'rect');
      rect.setAttribute('x', x.toFixed(2)); rect.setAttribute('y', y);
      rect.setAttribute('width', Math.max(0.1, w - 0.5).toFixed(2)); rect.setAttribute('height', ROW - 1);
      rect.setAttribute('fill', this.colorOf(i));
      const tip = document.createElementNS(ns, 'title');
      tip.textContent = t.nameOf(i);
      g.append(rect, tip);
      const room = Math.floor((w - 6) / (this.charWidth || 7.2));
      if (room > 2) {
        const text = document.createElementNS(ns, 'text');
        text.setAttribute('x', (x + 3).toFixed(2)); text.setAttribute('y', y + 13);
        const name = t.nameOf(i);
        text.textContent = name.length <= room ? name : name.slice(0, room - 1) + '\u2026';
        g.appendChild(text);
      }
      svg.appendChild(g);
    };
    for (let a = t.parent[z]; a >= 0; a = t.parent[a]) frame(a, 0, width);
    for (let i = z, end = z + t.count[z]; i < end;) {
      const w = t.total[i] * scale;
      if (w < 1 || t.depth[i] >= MAX_ROWS) { i += t.count[i]; continue; }
      frame(i, (t.x[i] - x0) * scale, w);
      i++;
    }
    return new XMLSerializer().serializeToString(svg);
  }

  toPng() {
    return new Promise(resolve => this.canvas.toBlob(resolve, 'image/png'));
  }
}
