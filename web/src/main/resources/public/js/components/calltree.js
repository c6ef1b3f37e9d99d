// Call tree table beside the flame graph, computed from the flame tree the page already has: expandable rows with
// self and total, children sorted by total, self or name, filtered by the side panel's filter (the stacks through a
// matching frame). It follows the graph: a zoom expands the path to the zoomed frame and selects it, search matches
// are marked; choosing a row zooms the graph.

import { el, formatPercent, formatWeight, splitName } from '../core/dom.js';
import { VirtualTable } from './vtable.js';

const INDENT = 12, MAX_INDENT_LEVELS = 24;

export class CallTree {
  /** callbacks: {onZoom(node), onSort(key), onSandwich(name)} */
  constructor(container, { onZoom, onSort, onSandwich }) {
    this.onZoom = onZoom;
    this.tree = null;
    this.sortKey = 'total';
    this.filterText = '';
    this.hit = null;
    this.selected = 0;
    this.rows = new Int32Array(0);
    this.table = new VirtualTable(container, [
      { key: 'name', label: 'Frame', sortable: true, cls: 'method' },
      { key: 'self', label: 'Self', num: true, sortable: true },
      { key: 'total', label: 'Total', num: true, sortable: true },
    ], {
      id: 'call-tree', caption: 'Call tree', rowHeight: 26, template: 'minmax(0, 1fr) 78px 78px',
      onSort: key => onSort(key),
      onActivate: (i, e) => {
        const node = this.rows[i];
        if (e.target.closest && e.target.closest('.twisty')) { this.toggle(node); return; }
        this.selected = node;
        this.table.render();
        onZoom(node);
      },
      onKey: (i, e) => {
        const node = this.rows[i];
        if (i < 0) return false;
        if (e.key === 'ArrowRight' && this.hasChildren(node) && !this.expanded[node]) { this.toggle(node); return true; }
        if (e.key === 'ArrowLeft') {
          if (this.expanded[node] && this.hasChildren(node)) { this.toggle(node); return true; }
          const parent = this.tree.parent[node];
          if (parent >= 0) { this.table.focusRow(this.rowOf(parent)); return true; }
        }
        if (e.key === 's' || e.key === 'S') { if (node > 0) onSandwich(this.tree.nameOf(node)); return true; }
        return false;
      },
      fill: (i, cells, row) => this.fill(i, cells, row),
    });
    this.table.root.setAttribute('role', 'treegrid');
  }

  destroy() { this.table.destroy(); }

  /** A new tree (new data): everything collapsed but the hot path, the sort and filter kept. */
  setTree(tree, unit) {
    this.tree = tree;
    this.unit = unit;
    this.expanded = new Uint8Array(tree.size);
    this.hit = null;
    this.selected = 0;
    this.expandHotPath();
    this.rebuild({ keepScroll: false });
  }

  /** Expands the root and, from it, each child that holds at least half of its parent's weight. */
  expandHotPath() {
    const t = this.tree;
    let node = 0;
    this.expanded[0] = 1;
    for (;;) {
      let best = -1;
      for (let c = node + 1, end = node + t.count[node]; c < end; c += t.count[c]) {
        if (best < 0 || t.total[c] > t.total[best]) best = c;
      }
      if (best < 0 || t.total[best] * 2 < t.total[node]) break;
      this.expanded[best] = 1;
      node = best;
    }
  }

  sort(key) {
    const next = key === 'self' || key === 'name' ? key : 'total';
    if (next === this.sortKey) return;
    this.sortKey = next;
    if (this.tree) this.rebuild({ keepScroll: true });
  }

  filter(text) {
    const next = (text || '').trim().toLowerCase();
    if (next === this.filterText) return;
    this.filterText = next;
    if (this.tree) this.rebuild({ keepScroll: false });
  }

  /** The flame graph's search matches (a flag per node), or null; a new search opens the way to its matches. */
  setSearch(hit) {
    if (hit === this.hit) return;
    this.hit = hit;
    if (!this.tree) return;
    if (hit) {
      // a path opened for one match is not walked again for the next (thousands of matches share their callers)
      const parent = this.tree.parent, opened = new Uint8Array(this.tree.size);
      for (let i = 1; i < this.tree.size; i++) {
        if (!hit[i]) continue;
        for (let a = parent[i]; a >= 0 && !opened[a]; a = parent[a]) this.expanded[a] = opened[a] = 1;
      }
    }
    this.rebuild({ keepScroll: true });
  }

  /** Shows the graph's zoomed frame: its path expanded, its row selected and scrolled into view. */
  setZoom(node) {
    if (!this.tree) return;
    node = node > 0 && node < this.tree.size ? node : 0;
    this.selected = node;
    for (let a = this.tree.parent[node]; a >= 0; a = this.tree.parent[a]) this.expanded[a] = 1;
    this.rebuild({ keepScroll: true });
    const i = this.rowOf(node);
    if (i >= 0) this.table.scrollTo(i);
  }

  hasChildren(node) { return this.tree.count[node] > 1; }

  toggle(node) {
    if (!this.hasChildren(node)) return;
    this.expanded[node] ^= 1;
    const i = this.rowOf(node);
    this.rebuild({ keepScroll: true });
    if (i >= 0) this.table.focusRow(i);
  }

  rowOf(node) { return this.rows.indexOf(node); }

  /** The nodes a filter keeps: those on a stack through a frame whose name holds the text; null = all. */
  kept() {
    const q = this.filterText, t = this.tree;
    if (!q) return null;
    const nameHit = new Uint8Array(t.names.length);
    for (let k = 0; k < t.names.length; k++) nameHit[k] = t.names[k].toLowerCase().includes(q) ? 1 : 0;
    const under = new Uint8Array(t.size), through = new Uint8Array(t.size);
    for (let i = 1; i < t.size; i++) under[i] = nameHit[t.name[i]] || under[t.parent[i]];
    for (let i = t.size - 1; i > 0; i--) if (under[i] || through[i]) through[t.parent[i]] = 1;
    const keep = new Uint8Array(t.size);
    for (let i = 0; i < t.size; i++) keep[i] = under[i] || through[i];
    // open the way to every match, so the filter shows them rather than closed rows
    for (let i = 0; i < t.size; i++) if (through[i] && !under[i]) this.expanded[i] = 1;
    return keep;
  }

  /** The visible rows: a pre-order walk of the expanded nodes, children in the sort order. */
  rebuild(options) {
    const t = this.tree, keep = this.kept();
    const rows = [];
    const key = this.sortKey;
    const order = (a, b) => key === 'name' ? t.nameOf(a).localeCompare(t.nameOf(b))
      : (key === 'self' ? t.self[b] - t.self[a] : 0) || t.total[b] - t.total[a] || a - b;
    const visit = node => {
      rows.push(node);
      if (!this.expanded[node]) return;
      const children = [];
      for (let c = node + 1, end = node + t.count[node]; c < end; c += t.count[c]) if (!keep || keep[c]) children.push(c);
      children.sort(order);
      for (const c of children) visit(c);
    };
    if (!keep || keep[0]) visit(0);
    this.rows = Int32Array.from(rows);
    this.table.setSort(key);
    this.table.setCount(this.rows.length, keep ? 'No frame matches the filter.' : 'No samples in this view.', options);
  }

  fill(i, cells, row) {
    const t = this.tree, node = this.rows[i], all = t.total[0] || 1;
    const name = t.nameOf(node), depth = t.depth[node];
    const { pkg, leaf } = splitName(name);
    const open = this.hasChildren(node) ? !!this.expanded[node] : null;
    row.title = name;
    row.dataset.node = String(node);
    row.setAttribute('aria-level', String(depth + 1));
    if (open !== null) row.setAttribute('aria-expanded', String(open));
    if (node === this.selected) { row.classList.add('selected'); row.setAttribute('aria-selected', 'true'); }
    if (this.hit && this.hit[node]) row.classList.add('match');
    cells[0].style.paddingLeft = 4 + Math.min(depth, MAX_INDENT_LEVELS) * INDENT + 'px';
    cells[0].append(el('span', { class: 'twisty', 'aria-hidden': 'true', text: open === null ? '' : open ? '\u25be' : '\u25b8' }),
      el('span', { class: 'leaf', text: leaf }));
    if (pkg) cells[0].appendChild(el('span', { class: 'pkg', text: ' ' + pkg.slice(0, -1) }));
    // one line per row: the share, with the weight on hover
    cells[1].textContent = formatPercent(t.self[node] / all);
    cells[1].title = 'Self: ' + formatWeight(t.self[node], this.unit);
    cells[2].textContent = formatPercent(t.total[node] / all);
    cells[2].title = 'Total: ' + formatWeight(t.total[node], this.unit);
  }
}
