// Sandwich view of one method: its callers merged above it (the method is their root, at the bottom, callers
// growing up) and its callees merged below it (the method at the top, callees growing down), so the method sits in
// the middle. Clicking a frame shows that frame's sandwich; the method is in the URL (method=).

import { el, clear, formatPercent, formatWeight, splitName } from '../core/dom.js';
import { FlameGraph } from '../flame/flamegraph.js';
import { FlameTree } from '../flame/flametree.js';

export class SandwichView {
  /** callbacks: {onMethod(name), onClose()} */
  constructor(container, { onMethod, onClose }) {
    this.title = el('h2', { class: 'sandwich-title', id: 'sandwich-method' });
    this.figures = el('p', { class: 'sandwich-figures', id: 'sandwich-figures' });
    const close = el('button', { type: 'button', class: 'button small', id: 'sandwich-close', text: 'Back to the flame graph',
      onclick: () => onClose() });
    // another method by name: the view's methods, heaviest first, offered as the user types
    this.choices = el('datalist', { id: 'sandwich-methods' });
    this.search = el('input', { type: 'search', class: 'search', id: 'sandwich-search', list: 'sandwich-methods', spellcheck: 'false',
      placeholder: 'Sandwich of another method\u2026', 'aria-label': 'Show the sandwich of a method by name' });
    this.search.addEventListener('keydown', e => {
      if (e.key === 'Enter' && this.search.value.trim()) { onMethod(this.search.value.trim()); this.search.value = ''; }
    });
    const graph = (label, id) => {
      const body = el('div', { class: 'flame-body sandwich-body', id });
      return { body, section: el('section', { class: 'sandwich-part', 'aria-label': label },
        el('div', { class: 'label', text: label }), body) };
    };
    this.callersPart = graph('Callers (who calls it, merged)', 'sandwich-callers');
    this.calleesPart = graph('Callees (what it calls, merged)', 'sandwich-callees');
    this.root = el('section', { class: 'flame-panel sandwich', id: 'sandwich' },
      el('div', { class: 'sandwich-head' }, el('div', {}, this.title, this.figures), el('div', { class: 'sandwich-tools' }, this.search, close)),
      this.choices,
      this.callersPart.section, this.calleesPart.section);
    container.appendChild(this.root);
    const options = part => ({
      onZoom: node => {
        const tree = part === 'callers' ? this.callers.tree : this.callees.tree;
        if (node > 0 && tree) onMethod(tree.nameOf(node));
      },
      describe: node => this.describe(part, node),
    });
    this.callers = new FlameGraph(this.callersPart.body, options('callers'));
    this.callees = new FlameGraph(this.calleesPart.body, options('callees'));
  }

  destroy() {
    this.callers.destroy();
    this.callees.destroy();
  }

  describe(part, node) {
    const t = (part === 'callers' ? this.callers : this.callees).tree;
    const of = t.total[0] || 1;
    const rows = [[part === 'callers' ? 'Through this caller' : 'In this callee', formatWeight(t.total[node], this.unit)
      + '  (' + formatPercent(t.total[node] / of) + ' of the method)']];
    if (part === 'callees') rows.push(['Self', formatWeight(t.self[node], this.unit)]);
    if (node > 0) rows.push(['', 'Click: show its sandwich']);
    return rows;
  }

  /** The names the search box offers: the view's methods (rows of {name, total}), at most 2,000, heaviest first. */
  offer(methods) {
    if (this.offered === methods) return;
    this.offered = methods;
    const names = [...methods].sort((a, b) => b.total - a.total).slice(0, 2000);
    this.choices.replaceChildren(...names.map(m => el('option', { value: m.name })));
  }

  /** data: the API's sandwich ({method, total, self, samples, callers, callees}); all: the view's total weight. */
  show(data, unit, all) {
    this.unit = unit;
    const { pkg, leaf } = splitName(data.method);
    clear(this.title).append(el('span', { class: 'label', text: 'Sandwich' }), ' ', el('span', { class: 'leaf', text: leaf }));
    if (pkg) this.title.appendChild(el('span', { class: 'pkg', text: ' ' + pkg.slice(0, -1) }));
    this.title.title = data.method;
    const share = all ? ` (${formatPercent(data.total / all)} of the view)` : '';
    this.figures.textContent = `Total ${formatWeight(data.total, unit)}${share} \u00b7 self ${formatWeight(data.self, unit)}`
      + (all ? ` (${formatPercent(data.self / all)})` : '');
    this.figures.dataset.total = String(data.total);
    this.figures.dataset.self = String(data.self);
    const callers = new FlameTree(data.callers.names, data.callers.nodes);
    const callees = new FlameTree(data.callees.names, data.callees.nodes);
    // the callers grow up from the method (a flame graph's own direction), the callees hang down from it
    this.callers.setTree(callers, { inverted: false });
    this.callees.setTree(callees, { inverted: true });
    this.callers.render();
    this.callees.render();
  }
}
