// A table that builds DOM only for the rows in view, so a profile's 20,000 methods or a call tree's expanded
// rows scroll as fluidly as 20. Rows have one fixed height; the caller fills each visible row's cells.
// ARIA table semantics (role=table/row/cell, aria-rowcount, aria-rowindex) keep it readable by screen readers,
// and arrow keys, Page Up/Down, Home and End walk the rows.

import { el, clear } from '../core/dom.js';

const OVERSCAN = 8;

export class VirtualTable {
  /**
   * columns: [{key, label, num (right-aligned), sortable}]; options: {id, caption, rowHeight, template (CSS grid
   * columns), fill(index, cells: Element[], row: Element), onActivate(index, event), onKey(index, event) -> handled,
   * onSort(key)}
   */
  constructor(container, columns, options) {
    this.columns = columns;
    this.options = options;
    this.rowHeight = options.rowHeight || 36;
    this.count = 0;
    this.focused = -1;
    this.sortKey = null;
    this.frame = 0;
    this.headers = {};
    const head = el('div', { class: 'vrow vhead', role: 'row', 'aria-rowindex': '1' });
    for (const c of columns) {
      const cell = el('div', { class: 'vcell' + (c.num ? ' num' : ''), role: 'columnheader' });
      if (c.sortable) {
        cell.appendChild(el('button', { type: 'button', class: 'sort', text: c.label, onclick: () => options.onSort && options.onSort(c.key) }));
      } else cell.textContent = c.label || '';
      if (c.label === '') cell.setAttribute('aria-label', c.aria || '');
      this.headers[c.key] = cell;
      head.appendChild(cell);
    }
    this.body = el('div', { class: 'vbody', role: 'rowgroup' });
    this.empty = el('p', { class: 'hint vempty', hidden: true });
    this.scroller = el('div', { class: 'vscroll', tabindex: '-1' }, head, this.body, this.empty);
    this.root = el('div', { class: 'vtable', id: options.id, role: 'table', 'aria-label': options.caption },
      el('div', { class: 'vcaption', text: options.caption }), this.scroller);
    this.root.style.setProperty('--vtable-columns', options.template);
    this.root.style.setProperty('--vrow-height', this.rowHeight + 'px');
    container.appendChild(this.root);
    this.scroller.addEventListener('scroll', () => this.schedule());
    this.body.addEventListener('keydown', e => this.key(e));
    this.resizer = new ResizeObserver(() => this.schedule());
    this.resizer.observe(this.scroller);
  }

  destroy() {
    this.resizer.disconnect();
    cancelAnimationFrame(this.frame);
  }

  /** Marks a column as the sort order (aria-sort) without sorting anything: the caller orders its rows. */
  setSort(key) {
    this.sortKey = key;
    for (const [k, cell] of Object.entries(this.headers)) {
      if (this.columns.find(c => c.key === k).sortable) cell.setAttribute('aria-sort', k === key ? (k === 'name' ? 'ascending' : 'descending') : 'none');
    }
  }

  /** New rows: count of them, the message shown when there are none. Keeps the scroll position when asked. */
  setCount(count, emptyText = '', { keepScroll = false } = {}) {
    this.count = count;
    this.root.setAttribute('aria-rowcount', String(count + 1));
    this.body.style.height = count * this.rowHeight + 'px';
    this.empty.hidden = count > 0;
    this.empty.textContent = emptyText;
    if (!keepScroll) { this.scroller.scrollTop = 0; this.focused = -1; }
    if (this.focused >= count) this.focused = count - 1;
    this.render();
  }

  schedule() {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => this.render());
  }

  /** Builds the rows in view (and a few beyond), refilling every one: the caller's data may have changed. */
  render() {
    const hadFocus = this.root.contains(document.activeElement) && document.activeElement !== this.scroller;
    const h = this.rowHeight;
    const top = this.scroller.scrollTop, height = this.scroller.clientHeight || 400;
    const first = Math.max(0, Math.floor(top / h) - OVERSCAN);
    const last = Math.min(this.count, Math.ceil((top + height) / h) + OVERSCAN);
    clear(this.body);
    for (let i = first; i < last; i++) {
      const cells = this.columns.map(c => el('div', { class: 'vcell' + (c.num ? ' num' : '') + (c.cls ? ' ' + c.cls : ''), role: 'cell' }));
      const row = el('div', { class: 'vrow', role: 'row', tabindex: i === this.focusTarget() ? '0' : '-1',
        'aria-rowindex': String(i + 2), dataset: { index: String(i) } }, cells);
      row.style.top = i * h + 'px';
      this.options.fill(i, cells, row);
      row.addEventListener('click', e => { this.focused = i; this.options.onActivate && this.options.onActivate(i, e); });
      row.addEventListener('focus', () => { this.focused = i; });
      this.body.appendChild(row);
    }
    this.rendered = [first, last];
    if (hadFocus && this.focused >= first && this.focused < last) this.rowAt(this.focused).focus({ preventScroll: true });
  }

  /** The row that takes the tab stop: the focused one, else the first. */
  focusTarget() { return this.focused >= 0 ? this.focused : 0; }

  rowAt(i) { return this.body.querySelector(`.vrow[data-index="${i}"]`); }

  /** Scrolls row i into view (centred when it was out of view) and renders. */
  scrollTo(i, { center = true } = {}) {
    if (i < 0 || i >= this.count) return;
    const h = this.rowHeight, top = this.scroller.scrollTop, height = this.scroller.clientHeight || 400;
    const head = this.scroller.firstChild.offsetHeight || 0;
    if (i * h < top || (i + 1) * h > top + height - head) {
      this.scroller.scrollTop = center ? Math.max(0, i * h - (height - head) / 2) : (i * h < top ? i * h : (i + 1) * h - height + head);
    }
    this.render();
  }

  focusRow(i) {
    if (this.count === 0) return;
    this.focused = Math.max(0, Math.min(this.count - 1, i));
    this.scrollTo(this.focused, { center: false });
    const row = this.rowAt(this.focused);
    if (row) row.focus({ preventScroll: true });
  }

  key(e) {
    const i = this.focused;
    if (this.options.onKey && this.options.onKey(i, e)) { e.preventDefault(); return; }
    const page = Math.max(1, Math.floor((this.scroller.clientHeight || 400) / this.rowHeight) - 1);
    const moves = { ArrowDown: i + 1, ArrowUp: i - 1, PageDown: i + page, PageUp: i - page, Home: 0, End: this.count - 1 };
    if (e.key in moves) {
      e.preventDefault();
      this.focusRow(moves[e.key]);
    } else if (e.key === 'Enter' && i >= 0) {
      e.preventDefault();
      this.options.onActivate && this.options.onActivate(i, e);
    }
  }
}
