// Hot-methods table: self and total per method for every method of the view (virtualised), sortable, filtered by
// the side panel's filter; Enter or click focuses the flame graph on a method, its sandwich button (or S) opens
// the method's callers and callees.

import { el, formatPercent, formatWeight, splitName } from '../core/dom.js';
import { VirtualTable } from './vtable.js';

export class HotMethods {
  /** callbacks: {onFocus(name), onSort(key), onSandwich(name)} */
  constructor(container, { unit, onFocus, onSort, onSandwich }) {
    this.unit = unit;
    this.sortKey = 'self';
    this.filterText = '';
    this.rows = [];
    this.shown = [];
    this.all = 1;
    this.table = new VirtualTable(container, [
      { key: 'name', label: 'Method', sortable: true, cls: 'method' },
      { key: 'self', label: 'Self', num: true, sortable: true },
      { key: 'total', label: 'Total', num: true, sortable: true },
      { key: 'open', label: '', aria: 'Sandwich' },
    ], {
      id: 'hot-methods', caption: 'Hot methods', rowHeight: 40, template: 'minmax(0, 1fr) 92px 92px 30px',
      onSort: key => onSort(key),
      onActivate: (i, e) => {
        const row = this.shown[i];
        if (e.target.closest && e.target.closest('.sandwich-open')) onSandwich(row.name);
        else onFocus(row.name);
      },
      onKey: (i, e) => {
        if ((e.key === 's' || e.key === 'S') && i >= 0) { onSandwich(this.shown[i].name); return true; }
        return false;
      },
      fill: (i, cells, tr) => this.fill(i, cells, tr),
    });
  }

  destroy() { this.table.destroy(); }

  setRows(rows, all, unit) {
    this.rows = rows;
    this.all = all || 1;
    if (unit) this.unit = unit;
    this.draw();
  }

  sort(key) {
    const next = key === 'total' || key === 'name' ? key : 'self';
    if (next === this.sortKey && this.sorted) return;
    this.sortKey = next;
    this.draw();
  }

  filter(text) {
    const next = (text || '').trim().toLowerCase();
    if (next === this.filterText) return;
    this.filterText = next;
    this.draw();
  }

  draw() {
    const key = this.sortKey, q = this.filterText;
    const rows = q ? this.rows.filter(r => r.name.toLowerCase().includes(q)) : [...this.rows];
    rows.sort(key === 'name' ? (a, b) => a.name.localeCompare(b.name) : (a, b) => b[key] - a[key] || a.name.localeCompare(b.name));
    this.shown = rows;
    this.sorted = true;
    this.table.setSort(key);
    this.table.setCount(rows.length, q ? 'No method matches the filter.' : 'No samples in this view.');
  }

  fill(i, cells, tr) {
    const row = this.shown[i], all = this.all;
    const { pkg, leaf } = splitName(row.name);
    tr.title = row.name;
    tr.dataset.name = row.name;
    cells[0].appendChild(el('span', { class: 'leaf', text: leaf }));
    if (pkg) cells[0].appendChild(el('span', { class: 'pkg', text: pkg.slice(0, -1) }));
    cells[1].append(el('span', { text: formatPercent(row.self / all) }), el('small', { text: formatWeight(row.self, this.unit) }));
    cells[2].append(el('span', { text: formatPercent(row.total / all) }), el('small', { text: formatWeight(row.total, this.unit) }));
    cells[3].appendChild(el('button', { type: 'button', class: 'icon-button sandwich-open', tabindex: '-1', text: '\u2195',
      title: 'Callers and callees of ' + row.name + ' (S)', 'aria-label': 'Sandwich: callers and callees of ' + row.name }));
  }
}
