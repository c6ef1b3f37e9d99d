// Hot-methods table: self and total per method, sortable; Enter or click focuses the flame graph on it.

import { el, clear, formatPercent, formatWeight, nameCell } from '../core/dom.js';

const LIMIT = 300;

export class HotMethods {
  constructor(container, { unit, onFocus, onSort }) {
    this.unit = unit;
    this.onFocus = onFocus;
    this.onSort = onSort;
    this.sortKey = 'self';
    this.rows = [];
    this.body = el('tbody');
    this.headers = {};
    const header = (key, label) => {
      const button = el('button', { type: 'button', class: 'sort', text: label, onclick: () => this.onSort(key) });
      this.headers[key] = el('th', { class: 'num', scope: 'col' }, button);
      return this.headers[key];
    };
    this.table = el('table', { class: 'data hot-methods', id: 'hot-methods' },
      el('caption', { text: 'Hot methods' }),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'Method' }), header('self', 'Self'), header('total', 'Total'))),
      this.body);
    container.appendChild(el('div', { class: 'table-scroll' }, this.table));
  }

  setRows(rows, all, unit) {
    this.rows = rows;
    this.all = all || 1;
    if (unit) this.unit = unit;
    this.draw();
  }

  sort(key) {
    this.sortKey = key === 'total' ? 'total' : 'self';
    this.draw();
  }

  draw() {
    const key = this.sortKey;
    for (const [k, th] of Object.entries(this.headers)) th.setAttribute('aria-sort', k === key ? 'descending' : 'none');
    const sorted = [...this.rows].sort((a, b) => b[key] - a[key] || a.name.localeCompare(b.name)).slice(0, LIMIT);
    clear(this.body);
    for (const row of sorted) {
      const tr = el('tr', { tabindex: '0', title: 'Focus the flame graph on ' + row.name },
        nameCell(row.name),
        el('td', { class: 'num' }, el('span', { text: formatPercent(row.self / this.all) }), el('small', { text: formatWeight(row.self, this.unit) })),
        el('td', { class: 'num' }, el('span', { text: formatPercent(row.total / this.all) }), el('small', { text: formatWeight(row.total, this.unit) })));
      tr.addEventListener('click', () => this.onFocus(row.name));
      tr.addEventListener('keydown', e => { if (e.key === 'Enter') this.onFocus(row.name); });
      this.body.appendChild(tr);
    }
  }
}
