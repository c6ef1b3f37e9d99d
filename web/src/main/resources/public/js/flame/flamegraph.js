// Canvas flame graph. Its pixels are computed in script (RowRaster): every frame adds its colour times the share of
// each pixel it covers, so frames narrower than a pixel add up to slivers whose area is the weight they stand for, and
// every row shows all of its weight (nothing is left blank). Labels are short names (Class.method) cut from the left,
// so the method stays visible; the full name is in the tooltip. Text only ever goes through fillText and textContent:
// frame names come from uploaded files.
//
// The canvas is as tall as the whole tree and keeps its size when zooming, so a zoom changes no layout and the
// clicked frame stays under the pointer; only the rows in view (and those scrolled to) are computed and put on it.

import { el } from '../core/dom.js';
import { cssRgb, frameColor, frameRgb, FRAME_TYPES, readPalette } from './colors.js';
import { shortName } from './names.js';

const ROW = 18;
/** Frames at least this wide (px) count as drawn one by one (data-drawn); keyboard walking stops on them. */
const MIN_WIDTH = 0.35;
/** In the SVG export, frames narrower than 1 px closer than this (px) join one sliver. */
const SLIVER_GAP = 0.5;
const LABEL_MIN = 22;
const FONT = '12px ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace';
const MAX_ROWS = 1200;
const DARK = '(prefers-color-scheme: dark)';
// ImageData holds bytes R, G, B, A: as one 32-bit number that order depends on the machine's
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** A tooltip row: [label, value], or [label, value, attributes of the row]; text only, never markup. */
function tipRow([label, value, attributes]) {
  return el('div', { class: 'tip-row', ...attributes }, el('span', { text: label }), el('b', { text: value }));
}

export class FlameGraph {
  /**
   * @param container  element to draw into
   * @param options    {onZoom(node), onFocus(node), describe(node) -> [[label, value]...], colorOf(node) -> a CSS colour
   *                   or, cheaper for a large tree, a number 0xRRGGBB}
   *                   onZoom: the user zoomed (click, Enter, U); onFocus: the keyboard focus moved to a frame;
   *                   onTip(node): the tooltip now shows node (-1: hidden), for rows that come later (addTipRows)
   */
  constructor(container, options = {}) {
    this.options = options;
    this.tree = null;
    this.zoom = 0;
    this.hit = null;
    this.focused = -1;
    this.inverted = false;
    this.canvas = el('canvas', { class: 'flame-canvas', tabindex: '0', role: 'img',
      'aria-label': 'Flame graph. Click a frame to zoom. Keys: arrows walk the frames (up and down: child and parent,'
        + ' left and right: neighbours), Enter zooms, U zooms out, Escape resets the zoom.' });
    this.focusBox = el('div', { class: 'flame-focus', hidden: true });
    this.tooltip = el('div', { class: 'flame-tooltip', role: 'tooltip', hidden: true });
    // what the keyboard focus is on, for screen readers (the canvas has no text of its own)
    this.announce = el('div', { class: 'visually-hidden', 'aria-live': 'polite' });
    this.root = el('div', { class: 'flame' }, this.canvas, this.focusBox, this.tooltip, this.announce);
    container.appendChild(this.root);
    // the box that scrolls the graph: rows are put on the canvas as they come into view
    this.box = container;
    this.onScroll = () => { if (this.tree && this.painted) this.showRows(this.visibleRows(this.painted.length)); };
    this.box.addEventListener('scroll', this.onScroll, { passive: true });
    this.ctx = this.canvas.getContext('2d');
    this.canvas.addEventListener('mousemove', e => this.hover(e));
    this.canvas.addEventListener('mouseleave', () => this.hideTip());
    this.canvas.addEventListener('click', e => {
      const node = this.nodeAt(e);
      if (node >= 0) this.select(node);
    });
    this.canvas.addEventListener('keydown', e => this.key(e));
    this.raster = new RowRaster();
    // a keyboard user arriving on the graph starts on the zoomed frame (a click focuses the canvas too, and shows nothing)
    this.canvas.addEventListener('focus', () => {
      if (this.tree && this.focused < 0 && this.canvas.matches(':focus-visible')) this.focusFrame(this.zoom);
    });
    this.canvas.addEventListener('blur', () => { this.focusBox.hidden = true; this.hideTip(); });
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
    // the canvas palette follows the colour scheme (app.css holds both sets)
    this.scheme = matchMedia(DARK);
    this.onScheme = () => { this.palette = null; this.colors = []; this.typeColors = []; this.typeRgbs = null; if (this.tree) this.render(); };
    this.scheme.addEventListener('change', this.onScheme);
  }

  /** Stops following the container's size and lets go of the tree and the canvas's pixels; nothing is drawn after. */
  destroy() {
    this.resizer.disconnect();
    cancelAnimationFrame(this.counting);
    this.scheme.removeEventListener('change', this.onScheme);
    this.box.removeEventListener('scroll', this.onScroll);
    cancelAnimationFrame(this.frame);
    this.tree = null;
    this.pending = null;
    // a tall graph's canvas and its pixel sums hold tens of megabytes until the element is collected
    this.canvas.width = this.canvas.height = 0;
    this.raster = new RowRaster();
  }

  setTree(tree, { inverted = false } = {}) {
    this.tree = tree;
    this.colors = new Array(tree.names.length);
    this.typeColors = [];
    this.typeRgbs = null;
    this.labels = new Array(tree.names.length);
    this.inverted = inverted;
    this.zoom = 0;
    this.hit = null;
    this.focused = -1;
    this.focusBox.hidden = true;
    this.tipNode = -1;
    this.hideTip();
    this.scrolledFor = null;
    this.drawnMarked = this.completeMarked = false;
  }

  /** result: FlameTree.search's answer (hit: a flag per node) or null; non-matching frames are dimmed. */
  setSearch(result) { this.hit = result ? result.hit : null; }

  setZoom(node) { this.zoom = node > 0 && node < this.tree.size ? node : 0; }

  /** Zooms to node as the user asked: redraws and reports it (onZoom). */
  select(node) {
    this.setZoom(node);
    this.render();
    if (this.focused >= 0) this.placeFocus();
    if (this.options.onZoom) this.options.onZoom(this.zoom);
  }

  /** Rows of the canvas: the whole tree's, whatever the zoom. */
  rows() { return Math.min(this.tree.maxDepth + 1, MAX_ROWS); }

  rowY(depth, rows) { return this.inverted ? depth * ROW : (rows - 1 - depth) * ROW; }

  render() {
    const started = performance.now();
    const t = this.tree;
    if (!t) return 0;
    this.palette ??= this.readColors();
    const width = this.root.clientWidth || 800;
    const rows = this.rows();
    const height = rows * ROW;
    const dpr = window.devicePixelRatio || 1;
    const resized = this.width !== width || this.height !== height || this.dpr !== dpr;
    if (resized) {
      this.canvas.width = Math.round(width * dpr);
      this.canvas.height = Math.round(height * dpr);
      this.canvas.style.width = width + 'px';
      this.canvas.style.height = height + 'px';
      this.width = width; this.height = height; this.dpr = dpr;
    }
    // a new tree opens at its root (or the zoomed frame): scrolled there before the rows in view are chosen
    if (this.scrolledFor !== t) {
      this.scrolledFor = t;
      this.revealZoom(true);
    }
    const ctx = this.ctx;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    // a canvas given a new size starts blank: clearing its megabytes of pixels again is a first paint's time
    if (!resized) ctx.clearRect(0, 0, width, height);
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    if (!this.charWidth) this.charWidth = ctx.measureText('MMMMMMMMMM').width / 10;

    // a tooltip shown before tells the zoom it was made for: rebuilt on the next move
    this.tipNode = -1;
    this.raster.begin(rows, this.canvas.width);
    this.computed = new Uint8Array(rows);
    this.painted = new Uint8Array(rows);
    this.labelList = [];
    // only the rows in view are computed and put on the canvas now, without what lies under frames too narrow to be
    // seen alone (completeRows adds it after this paint); the other rows when scrolled to (or exported)
    this.pending = { later: [] };
    this.showRows(this.visibleRows(rows), this.pending);
    this.lastRenderMs = performance.now() - started;
    this.canvas.dataset.zoom = String(this.zoom);
    // the count of frames drawn one by one (data-drawn) is for tests and DevTools: made once the graph is on screen;
    // until then the attribute is absent
    delete this.canvas.dataset.drawn;
    cancelAnimationFrame(this.counting);
    this.counting = requestAnimationFrame(() => setTimeout(() => {
      if (this.tree !== t) return;
      this.completeRows();
      this.canvas.dataset.drawn = String(this.drawn = this.countDrawn());
    }));
    // each tree's first drawing; the first of the page is its first paint (DevTools and FlameGraphBenchmark read it)
    if (!this.drawnMarked) { this.drawnMarked = true; performance.mark('workbench:drawn'); }
    if (this.focused >= 0) this.placeFocus();
    return this.lastRenderMs;
  }

  /** The rows [first, last] (depths) the graph's box shows, with a few more on each side. */
  visibleRows(rows) {
    const box = this.box, top = box.scrollTop, bottom = top + (box.clientHeight || this.height);
    const first = Math.floor(top / ROW) - 4, last = Math.ceil(bottom / ROW) + 4;
    // rows count from the canvas's top here; depths from the root
    return this.inverted ? [Math.max(0, first), Math.min(rows - 1, last)] : [Math.max(0, rows - 1 - last), Math.min(rows - 1, rows - 1 - first)];
  }

  /**
   * Computes and paints the depths [first, last] not shown yet; with pending ({later: []}), the subtrees of frames
   * too narrow to be seen alone are left out and their roots collected in pending.later for completeRows.
   */
  showRows([first, last], pending = null) {
    let todo = null;
    for (let d = first; d <= last; d++) if (!this.computed[d]) (todo ??= new Uint8Array(this.computed.length))[d] = 1;
    if (todo) this.computeRows(todo, last, pending);
    this.paintRows(first, last);
  }

  /**
   * Adds the frames of the depths flagged in todo (none deeper than last) to the raster and their labels to the
   * list: one walk of the zoomed subtree that passes over what lies deeper. With pending, it passes over the subtrees
   * of frames narrower than MIN_WIDTH too (everything in them is narrower still: slivers, never a frame drawn alone),
   * most of a large tree's rows in view, and keeps their roots and todo for completeRows.
   */
  computeRows(todo, last, pending = null) {
    const t = this.tree, palette = this.palette, dpr = this.dpr, width = this.width, rows = this.computed.length;
    const z = this.zoom, hit = this.hit, raster = this.raster, labels = this.labelList;
    const device = width * dpr;
    for (let a = t.parent[z]; a >= 0; a = t.parent[a]) {
      if (!todo[t.depth[a]]) continue;
      const alpha = palette.ancestorAlpha * (hit && !hit[a] ? palette.dimAlpha : 1);
      raster.span(t.depth[a], 0, device - dpr / 2, this.rgbOf(a), alpha);
      this.label(a, 0, width, rows, alpha, labels);
    }
    if (pending) Object.assign(pending, { todo, last });
    this.addFrames(z, z + t.count[z], todo, last, pending ? pending.later : null);
    for (let d = 0; d < rows; d++) if (todo[d]) this.computed[d] = 1;
  }

  /**
   * The walk of computeRows over the nodes [from, end) (whole subtrees): frames to the raster, labels to the list.
   * later: null, or where the roots of the subtrees too narrow to be seen alone go, their frames below not added.
   */
  addFrames(from, end, todo, last, later) {
    const t = this.tree, palette = this.palette, dpr = this.dpr, width = this.width, rows = this.computed.length;
    const z = this.zoom, hit = this.hit, raster = this.raster, labels = this.labelList;
    // device pixels per unit of weight
    const scale = t.total[z] > 0 ? width * dpr / t.total[z] : 0;
    const x0 = t.x[z], depth = t.depth, total = t.total, xs = t.x, count = t.count, type = t.type;
    const gap = dpr / 2, labelMin = LABEL_MIN * dpr, dim = palette.dimAlpha, acc = raster.acc, rowWidth = raster.width;
    // below this width (device px) a frame's subtree waits for completeRows; 0: nothing waits
    const narrow = later ? MIN_WIDTH * dpr : 0;
    // narrow frames take their type's colour (a blend of sub-pixel frames shows no single name's shade), unless the
    // page colours frames itself
    const typeRgb = this.options.colorOf ? null : (this.typeRgbs ??= FRAME_TYPES.map((_, code) => this.typeRgb(code)));
    const matchRgb = palette.matchRgb;
    for (let i = from; i < end;) {
      const d = depth[i];
      if (d > last) { i += count[i]; continue; }
      const w = total[i] * scale;
      if (todo[d] === 1) {
        const x = (xs[i] - x0) * scale;
        const matched = hit !== null && hit[i] === 1;
        const alpha = hit !== null && !matched ? dim : 1;
        if (w < 1 && typeRgb !== null && i > 0 && x >= 0 && x + w <= rowWidth) {
          // most frames of a large tree: one or two pixels of its row, added here without a call
          const rgb = matched ? matchRgb : typeRgb[type[i]];
          const r = (rgb >>> 16) * alpha, g = ((rgb >>> 8) & 255) * alpha, b = (rgb & 255) * alpha;
          raster.used[d] = 1;
          const p = x | 0, split = p + 1 - x;
          let k = (d * rowWidth + p) * 4, cover = w < split ? w : split;
          acc[k] += r * cover; acc[k + 1] += g * cover; acc[k + 2] += b * cover; acc[k + 3] += alpha * cover;
          if (w > split && p + 1 < rowWidth) {
            cover = w - split;
            k += 4;
            acc[k] += r * cover; acc[k + 1] += g * cover; acc[k + 2] += b * cover; acc[k + 3] += alpha * cover;
          }
        } else if (w > 0) {
          // a gap between frames wide enough to show one
          raster.span(d, x, x + (w > 3 * gap ? w - gap : w), w >= dpr ? this.rgbOf(i) : this.sliverRgb(i), alpha);
          if (w >= labelMin) this.label(i, x / dpr, w / dpr, rows, alpha, labels);
        }
      }
      if (w < narrow && i > z && count[i] > 1) {
        later.push(i);
        i += count[i];
      } else i++;
    }
  }

  /**
   * Adds what the last render left out (the frames under those too narrow to be seen alone, in the rows it computed)
   * and puts those rows on the canvas again: once that render is painted, or before an export.
   */
  completeRows() {
    const pending = this.pending;
    this.pending = null;
    if (!pending || !pending.later.length || !this.tree) return;
    const { later, todo, last } = pending, count = this.tree.count;
    for (const root of later) this.addFrames(root + 1, root + count[root], todo, last, null);
    const rows = new Uint8Array(this.painted.length);
    for (let d = 0; d < rows.length; d++) rows[d] = todo[d] & this.painted[d];
    this.putRows(rows);
    if (!this.completeMarked) { this.completeMarked = true; performance.mark('workbench:complete'); }
  }

  /** The frames drawn one by one (at least MIN_WIDTH wide) in the zoomed view: what data-drawn tells. */
  countDrawn() {
    const t = this.tree, z = this.zoom, end = z + t.count[z], rows = this.computed.length;
    const min = MIN_WIDTH * (t.total[z] || 1) / this.width;
    let drawn = 0;
    for (let i = z; i < end;) {
      if (t.total[i] < min || t.depth[i] >= rows) { i += t.count[i]; continue; }
      drawn++;
      i++;
    }
    return drawn;
  }

  /** Puts the depths [first, last] not put yet on the canvas. */
  paintRows(first, last) {
    let any = false;
    const fresh = new Uint8Array(this.painted.length);
    for (let d = first; d <= last; d++) if (!this.painted[d]) { this.painted[d] = fresh[d] = 1; any = true; }
    if (any) this.putRows(fresh);
  }

  /** Puts the depths flagged in fresh on the canvas, pixels (over what the rows showed) then labels. */
  putRows(fresh) {
    const rows = this.painted.length, dpr = this.dpr, ctx = this.ctx;
    this.raster.paint(ctx, fresh, d => this.rowY(d, rows) * dpr, Math.round((ROW - 1) * dpr));
    // labels over the pixels: one fill style for all text
    const labels = this.labelList;
    ctx.fillStyle = this.palette.label;
    for (let k = 0; k < labels.length; k += 5) {
      if (!fresh[labels[k]]) continue;
      if (ctx.globalAlpha !== labels[k + 4]) ctx.globalAlpha = labels[k + 4];
      ctx.fillText(labels[k + 3], labels[k + 1], labels[k + 2]);
    }
    ctx.globalAlpha = 1;
  }

  /** The palette with its colours as numbers too (the pixels are drawn from numbers). */
  readColors() {
    const palette = readPalette(this.root);
    palette.matchRgb = cssRgb(palette.match);
    palette.rootRgb = cssRgb(palette.root);
    return palette;
  }

  /** The colour of a frame (not dimming): a search match, the root, the page's own (diff) or the type's. */
  colorOf(i) {
    const t = this.tree;
    if (this.hit && this.hit[i]) return this.palette.match;
    if (i === 0) return this.palette.root;
    if (this.options.colorOf) {
      const color = this.options.colorOf(i);
      return typeof color === 'number' ? '#' + color.toString(16).padStart(6, '0') : color;
    }
    return frameColor(t.type[i], t.names[t.name[i]], this.palette.lighten);
  }

  /** The colour of a frame narrower than a pixel: its type's, unless it is a match, the root or the page colours it. */
  sliverRgb(i) {
    if ((this.hit && this.hit[i]) || i === 0 || this.options.colorOf) return this.rgbOf(i);
    return this.typeRgb(this.tree.type[i]);
  }

  typeRgb(type) {
    let rgb = this.typeColors[type];
    if (rgb === undefined) rgb = this.typeColors[type] = frameRgb(type, '', this.palette.lighten);
    return rgb;
  }

  /** colorOf as 0xRRGGBB. */
  rgbOf(i) {
    if (this.hit && this.hit[i]) return this.palette.matchRgb;
    if (i === 0) return this.palette.rootRgb;
    if (this.options.colorOf) {
      const color = this.options.colorOf(i);
      return typeof color === 'number' ? color : cssRgb(color);
    }
    const key = this.tree.name[i];
    let rgb = this.colors[key];
    if (rgb === undefined) rgb = this.colors[key] = frameRgb(this.tree.type[i], this.tree.names[key], this.palette.lighten);
    return rgb;
  }

  /** The label of node i: its short name, cut from the left to fit room characters (the method stays). */
  labelOf(i, room) {
    const key = this.tree.name[i];
    const label = this.labels[key] ??= shortName(this.tree.names[key]);
    if (label.length <= room) return label;
    // a cut label keeps at least three characters of the method's end, or is left out
    return room > 3 ? '\u2026' + label.slice(label.length - room + 1) : '';
  }

  /** Queues the label of a frame at x (CSS px), w wide; a dimmed frame's label is dimmed less, to stay readable. */
  label(i, x, w, rows, alpha, labels) {
    if (w < LABEL_MIN) return;
    const text = this.labelOf(i, Math.floor((w - 6) / this.charWidth));
    const d = this.tree.depth[i];
    if (text) labels.push(d, x + 3, this.rowY(d, rows) + ROW / 2, text, alpha < 1 ? Math.min(1, alpha * 2) : 1);
  }

  /**
   * Scrolls the graph's box so the zoomed frame's row is in view with a few ancestors below it (above it when
   * inverted); always, or only when it is out of view.
   */
  revealZoom(always = false) {
    const box = this.box;
    if (!box || !this.tree) return;
    const rows = this.rows(), d = Math.min(this.tree.depth[this.zoom], rows - 1), y = this.rowY(d, rows);
    const context = Math.min(2, d) * ROW;
    if (!always && y >= box.scrollTop && y + ROW <= box.scrollTop + box.clientHeight) return;
    box.scrollTop = this.inverted ? y - context : y + ROW + context - box.clientHeight;
  }

  /** The node under the pointer (narrow ones too: a sliver tells what it holds), or -1. */
  nodeAt(event) {
    const t = this.tree;
    if (!t) return -1;
    const rect = this.canvas.getBoundingClientRect();
    return this.nodeAtPoint(event.clientX - rect.left, event.clientY - rect.top);
  }

  nodeAtPoint(px, py) {
    const t = this.tree;
    const rows = Math.round(this.height / ROW);
    const row = Math.floor(py / ROW);
    const depth = this.inverted ? row : rows - 1 - row;
    if (depth < 0 || depth >= rows || px < 0 || px > this.width) return -1;
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
    return node;
  }

  hover(event) {
    const node = this.nodeAt(event);
    if (node < 0) { this.hideTip(); return; }
    this.showTip(node, event.clientX, event.clientY);
  }

  hideTip() {
    const shown = !this.tooltip.hidden;
    this.tooltip.hidden = true;
    this.tipNode = -1;
    if (shown && this.options.onTip) this.options.onTip(-1);
  }

  /** Adds rows ([[label, value], …]) to node's tooltip, if it still shows node; whether it did. */
  addTipRows(node, rows) {
    const tip = this.tooltip;
    if (tip.hidden || node !== this.tipNode || !rows.length) return false;
    tip.append(...rows.map(tipRow));
    this.tipSize = [tip.offsetWidth, tip.offsetHeight];
    this.placeTip(...this.tipAt);
    return true;
  }

  /**
   * Shows node's tooltip near (x, y) in the viewport. Its content is rebuilt only when the node changes, and its size
   * measured then: moving over one frame only moves the box.
   */
  showTip(node, x, y) {
    const tip = this.tooltip;
    if (node !== this.tipNode) {
      this.tipNode = node;
      const rows = this.options.describe ? this.options.describe(node) : [];
      tip.replaceChildren(el('div', { class: 'tip-name', text: this.tree.nameOf(node) }), ...rows.map(tipRow));
      tip.hidden = false;
      this.tipSize = [tip.offsetWidth, tip.offsetHeight];
      if (this.options.onTip) this.options.onTip(node);
    }
    this.placeTip(x, y);
  }

  /** Puts the tooltip near (x, y), within the viewport. */
  placeTip(x, y) {
    this.tipAt = [x, y];
    const tip = this.tooltip;
    // fixed to the viewport so the scrolling graph box cannot clip it
    const [w, h] = this.tipSize;
    let left = x + 14, top = y + 14;
    if (left + w > window.innerWidth - 8) left = Math.max(4, x - w - 10);
    if (top + h > window.innerHeight - 8) top = Math.max(4, y - h - 10);
    tip.style.transform = `translate(${left}px, ${top}px)`;
  }

  /** Moves the keyboard focus to node (or none: -1): outlined, scrolled into view, its tooltip shown, announced. */
  focusFrame(node) {
    this.focused = node;
    if (node < 0 || !this.tree) { this.focusBox.hidden = true; this.hideTip(); return; }
    this.placeFocus();
    const box = this.box, y = this.rowY(Math.min(this.tree.depth[node], this.rows() - 1), this.rows());
    if (box && (y < box.scrollTop || y + ROW > box.scrollTop + box.clientHeight)) box.scrollTop = y - (box.clientHeight - ROW) / 2;
    const rect = this.focusBox.getBoundingClientRect();
    if (document.activeElement === this.canvas) this.showTip(node, rect.left, rect.bottom - 10);
    this.announce.textContent = this.tree.nameOf(node);
    if (this.options.onFocus) this.options.onFocus(node);
  }

  /** The focus outline over the focused frame, clipped to the graph (at least 3 px wide, to be seen). */
  placeFocus() {
    const t = this.tree, node = this.focused, rows = this.rows();
    const inside = node === this.zoom || (node > this.zoom && node < this.zoom + t.count[this.zoom]);
    let x = 0, w = this.width;
    if (inside) {
      const scale = this.width / t.total[this.zoom];
      x = (t.x[node] - t.x[this.zoom]) * scale;
      w = t.total[node] * scale;
    } else if (!isAncestor(t, node, this.zoom)) {
      this.focusBox.hidden = true;
      return;
    }
    w = Math.max(3, Math.min(w, this.width - x));
    const style = this.focusBox.style;
    style.transform = `translate(${Math.min(x, this.width - w)}px, ${this.rowY(Math.min(t.depth[node], rows - 1), rows)}px)`;
    style.width = w + 'px';
    style.height = (ROW - 1) + 'px';
    this.focusBox.hidden = false;
  }

  /** Keyboard: arrows walk the frames on screen, Enter zooms into the focused frame, U or Backspace zooms out. */
  key(e) {
    const t = this.tree;
    if (!t) return;
    if ((e.key === 'u' || e.key === 'Backspace') && this.zoom > 0) {
      e.preventDefault();
      this.select(t.parent[this.zoom]);
      return;
    }
    const from = this.focused >= 0 ? this.focused : this.zoom;
    let next = -1;
    const up = this.inverted ? 'ArrowDown' : 'ArrowUp', down = this.inverted ? 'ArrowUp' : 'ArrowDown';
    if (e.key === up) next = from < this.zoom && isAncestor(t, from, this.zoom) ? childTowards(t, from, this.zoom) : this.heaviestChild(from);
    else if (e.key === down) next = t.parent[from];
    else if (e.key === 'ArrowLeft') next = this.neighbour(from, -1);
    else if (e.key === 'ArrowRight') next = this.neighbour(from, 1);
    else if (e.key === 'Enter' && this.focused >= 0) { e.preventDefault(); this.select(this.focused); return; }
    else return;
    e.preventDefault();
    if (next >= 0) this.focusFrame(next);
  }

  /** The widest child shown (the hot path), or -1. */
  heaviestChild(node) {
    const t = this.tree, end = node + t.count[node];
    let best = -1;
    for (let c = node + 1; c < end; c += t.count[c]) if (best < 0 || t.total[c] > t.total[best]) best = c;
    return best >= 0 && t.depth[best] < this.rows() && this.visibleWidth(best) >= MIN_WIDTH ? best : -1;
  }

  /** The nearest frame of the same row to the left (-1) or right (1), at least MIN_WIDTH wide in the zoomed view, or -1. */
  neighbour(node, direction) {
    const t = this.tree, d = t.depth[node];
    if (node <= this.zoom) return -1; // the zoomed frame and its ancestors span the whole width
    const end = this.zoom + t.count[this.zoom];
    let best = -1;
    // pre-order visits a row left to right; subtrees that cannot hold a wide enough frame of the row are passed over
    for (let i = direction > 0 ? node + t.count[node] : this.zoom; i < (direction > 0 ? end : node);) {
      const di = t.depth[i];
      if (di > d || (di < d && this.visibleWidth(i) < MIN_WIDTH)) { i += t.count[i]; continue; }
      if (di === d) {
        if (this.visibleWidth(i) >= MIN_WIDTH) { if (direction > 0) return i; best = i; }
        i += t.count[i];
        continue;
      }
      i++;
    }
    return best;
  }

  visibleWidth(i) {
    const t = this.tree;
    return t.total[i] * this.width / (t.total[this.zoom] || 1);
  }

  /** Visible frames as SVG (valid XML whatever the names hold), built with DOM calls so names stay text. */
  toSvg(title) {
    const t = this.tree, ns = 'http://www.w3.org/2000/svg';
    const palette = this.palette ??= this.readColors();
    const width = this.width, rows = Math.round(this.height / ROW);
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('xmlns', ns);
    svg.setAttribute('width', width);
    svg.setAttribute('height', this.height + 24);
    svg.setAttribute('font-family', 'monospace');
    svg.setAttribute('font-size', '12');
    const heading = document.createElementNS(ns, 'text');
    heading.setAttribute('x', 4); heading.setAttribute('y', 16);
    heading.textContent = xmlText(title);
    svg.appendChild(heading);
    const z = this.zoom, scale = width / t.total[z], x0 = t.x[z];
    const rect = (x, y, w, fill, opacity) => {
      const r = document.createElementNS(ns, 'rect');
      r.setAttribute('x', x.toFixed(2)); r.setAttribute('y', y);
      r.setAttribute('width', Math.max(0.1, w).toFixed(2)); r.setAttribute('height', ROW - 1);
      r.setAttribute('fill', fill);
      if (opacity < 1) r.setAttribute('fill-opacity', opacity.toFixed(3));
      return r;
    };
    const frame = (i, x, w, opacity) => {
      const g = document.createElementNS(ns, 'g');
      const y = this.rowY(t.depth[i], rows) + 24;
      const tip = document.createElementNS(ns, 'title');
      tip.textContent = xmlText(t.nameOf(i));
      g.append(rect(x, y, w > 1.5 ? w - 0.5 : w, this.colorOf(i), opacity), tip);
      const label = opacity >= 0.5 && w >= LABEL_MIN ? this.labelOf(i, Math.floor((w - 6) / (this.charWidth || 7.2))) : '';
      if (label) {
        const text = document.createElementNS(ns, 'text');
        text.setAttribute('x', (x + 3).toFixed(2)); text.setAttribute('y', y + 13);
        text.setAttribute('fill', palette.label);
        text.textContent = xmlText(label);
        g.appendChild(text);
      }
      svg.appendChild(g);
    };
    const dim = i => (this.hit && !this.hit[i] ? palette.dimAlpha : 1);
    for (let a = t.parent[z]; a >= 0; a = t.parent[a]) frame(a, 0, width, palette.ancestorAlpha * dim(a));
    const slivers = new Slivers(rows);
    const sliver = (d, kind) => {
      const k = 2 * d + kind, extent = Math.max(slivers.to[k] - slivers.from[k], slivers.weight[k]);
      const opacity = Math.min(1, slivers.weight[k] / extent) * (this.hit && !kind ? palette.dimAlpha : 1);
      svg.appendChild(rect(slivers.from[k], this.rowY(d, rows) + 24, extent, this.colorOf(slivers.node[k]), opacity));
      slivers.weight[k] = 0;
    };
    for (let i = z, end = z + t.count[z]; i < end; i++) {
      const d = t.depth[i];
      if (d >= rows) { i += t.count[i] - 1; continue; }
      const w = t.total[i] * scale;
      if (w >= 1) frame(i, (t.x[i] - x0) * scale, w, dim(i));
      else if (w > 0) {
        const kind = this.hit && this.hit[i] ? 1 : 0, at = (t.x[i] - x0) * scale;
        if (!slivers.add(d, kind, at, w, i)) {
          sliver(d, kind);
          slivers.add(d, kind, at, w, i);
        }
      }
    }
    for (let d = 0; d < rows; d++) for (let kind = 0; kind < 2; kind++) if (slivers.weight[2 * d + kind] > 0) sliver(d, kind);
    return new XMLSerializer().serializeToString(svg);
  }

  toPng() {
    this.completeRows();
    this.showRows([0, this.painted.length - 1]);
    return new Promise(resolve => this.canvas.toBlob(resolve, 'image/png'));
  }
}

/**
 * The graph's pixels, computed in script rather than with a fillRect per frame: a frame adds its colour times the
 * share of each device pixel it covers, so frames narrower than a pixel add up, blended, to what their row weighs,
 * and 300,000 frames draw in milliseconds. One pixel line per row, copied down to the row's height.
 */
class RowRaster {
  constructor() {
    this.acc = new Float32Array(0);
  }

  begin(rows, width) {
    const n = rows * width * 4;
    if (this.acc.length < n) this.acc = new Float32Array(n);
    else this.acc.fill(0, 0, n);
    this.width = width;
    this.used = new Uint8Array(rows);
    return this;
  }

  /** Adds the device pixels [from, to) of row d in colour rgb (0xRRGGBB) at opacity alpha. */
  span(d, from, to, rgb, alpha) {
    const width = this.width;
    if (from < 0) from = 0;
    if (to > width) to = width;
    if (!(to > from)) return;
    this.used[d] = 1;
    const acc = this.acc, row = d * width;
    const r = (rgb >>> 16) * alpha, g = ((rgb >>> 8) & 255) * alpha, b = (rgb & 255) * alpha;
    let p = from | 0;
    const last = Math.min(width - 1, Math.ceil(to) - 1);
    // coverage of the first, the inner and the last pixel
    let cover = (p === last ? to : p + 1) - from;
    for (;;) {
      const k = (row + p) * 4;
      acc[k] += r * cover;
      acc[k + 1] += g * cover;
      acc[k + 2] += b * cover;
      acc[k + 3] += alpha * cover;
      if (++p > last) return;
      cover = p === last ? to - p : 1;
    }
  }

  /** Puts the rows flagged in rows on the canvas: row d at device line y(d), height device lines. */
  paint(ctx, rows, y, height) {
    const width = this.width;
    if (!this.strip || this.strip.width !== width || this.strip.height !== height) {
      this.strip = ctx.createImageData(width, height);
      this.pixels = new Uint32Array(this.strip.data.buffer);
    }
    const acc = this.acc, pixels = this.pixels;
    for (let d = 0; d < rows.length; d++) {
      if (!rows[d] || !this.used[d]) continue;
      for (let p = 0, k = d * width * 4; p < width; p++, k += 4) {
        const a = acc[k + 3];
        if (a <= 0) { pixels[p] = 0; continue; }
        // straight colour = the coverage-weighted mean; opacity = the coverage (at most 1)
        const alpha = a >= 1 ? 255 : Math.round(a * 255);
        const r = Math.round(acc[k] / a), g = Math.round(acc[k + 1] / a), b = Math.round(acc[k + 2] / a);
        pixels[p] = LITTLE_ENDIAN ? (alpha << 24 | b << 16 | g << 8 | r) >>> 0 : (r << 24 | g << 16 | b << 8 | alpha) >>> 0;
      }
      for (let line = 1; line < height; line++) pixels.copyWithin(line * width, 0, width);
      ctx.putImageData(this.strip, 0, Math.round(y(d)));
    }
  }
}

/**
 * Per row and kind (matching the search or not), the run of narrow frames being merged: its extent, the weight it
 * stands for (px) and its heaviest frame (whose colour it takes).
 */
class Slivers {
  constructor(rows) {
    this.from = new Float64Array(2 * rows);
    this.to = new Float64Array(2 * rows);
    this.weight = new Float64Array(2 * rows);
    this.heaviest = new Float64Array(2 * rows);
    this.node = new Int32Array(2 * rows);
  }

  /** Adds a frame to its row's run; false when the run must be drawn first (the frame is too far from it). */
  add(d, kind, x, w, node) {
    const k = 2 * d + kind;
    if (this.weight[k] > 0) {
      if (x - this.to[k] > SLIVER_GAP) return false;
      this.to[k] = x + w;
      this.weight[k] += w;
      if (w > this.heaviest[k]) { this.heaviest[k] = w; this.node[k] = node; }
      return true;
    }
    this.from[k] = x;
    this.to[k] = x + w;
    this.weight[k] = w;
    this.heaviest[k] = w;
    this.node[k] = node;
    return true;
  }
}

/** The child of ancestor a on the path down to node. */
function childTowards(t, a, node) {
  let c = node;
  while (t.parent[c] !== a) c = t.parent[c];
  return c;
}

function isAncestor(t, a, node) {
  for (let p = node; p >= 0; p = t.parent[p]) if (p === a) return true;
  return false;
}

/**
 * Text as XML 1.0 can hold it: characters it forbids (controls but tab and line breaks, lone surrogates, U+FFFE and
 * U+FFFF) are written as the collapsed format escapes them (\x00), so the file parses and the reader sees what was there.
 */
export function xmlText(text) {
  return text.replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    c => '\\' + (c.charCodeAt(0) < 0x100 ? 'x' + c.charCodeAt(0).toString(16).padStart(2, '0') : 'u' + c.charCodeAt(0).toString(16)));
}
