// A flame graph with its toolbar: breadcrumb of the zoomed path, regex search with the matched share,
// reset, and exports (collapsed text, SVG, PNG). Search and zoom live in the URL (state.js).

import { el, clear, download, formatPercent, formatWeight, toast } from '../core/dom.js';
import { FlameGraph } from './flamegraph.js';
import { FRAME_TYPES, frameColor } from './colors.js';
import * as state from '../core/state.js';

export class FlamePanel {
  /**
   * options: {unit, fileName, legend: 'types' | 'diff', describe(node) extra rows, colorOf(node), extraTools: [nodes]}
   */
  constructor(container, options = {}) {
    this.options = options;
    this.tree = null;
    this.applied = {};
    this.searchInput = el('input', { type: 'search', class: 'search', placeholder: 'Search frames (regex)  /',
      'aria-label': 'Search frames by regular expression', id: 'flame-search', spellcheck: 'false' });
    this.searchInput.addEventListener('keydown', e => {
      if (e.key === 'Enter') this.commitSearch();
      if (e.key === 'Escape') { this.searchInput.value = ''; this.commitSearch(); this.searchInput.blur(); }
    });
    this.searchInput.addEventListener('change', () => this.commitSearch());
    this.matchInfo = el('span', { class: 'match-info', id: 'match-info', 'aria-live': 'polite' });
    this.crumbs = el('nav', { class: 'crumbs', 'aria-label': 'Zoomed frame path' });
    const exportMenu = el('details', { class: 'menu' },
      el('summary', { class: 'button', text: 'Export' }),
      el('div', { class: 'menu-items' },
        el('button', { type: 'button', text: 'Collapsed stacks (.txt)', id: 'export-collapsed', onclick: () => this.exportCollapsed() }),
        el('button', { type: 'button', text: 'SVG image', id: 'export-svg', onclick: () => this.exportSvg() }),
        el('button', { type: 'button', text: 'PNG image', id: 'export-png', onclick: () => this.exportPng() })));
    this.resetButton = el('button', { type: 'button', class: 'button', id: 'zoom-reset', text: 'Reset zoom',
      title: 'Reset zoom (Esc)', onclick: () => state.update({ zoom: undefined }) });
    const toolbar = el('div', { class: 'toolbar' }, this.searchInput, this.matchInfo,
      el('span', { class: 'spacer' }), ...(options.extraTools || []), this.resetButton, exportMenu);
    this.legend = el('div', { class: 'legend', 'aria-label': 'Frame colours' });
    this.body = el('div', { class: 'flame-body' });
    this.root = el('section', { class: 'flame-panel' }, toolbar, this.crumbs, this.body, this.legend);
    container.appendChild(this.root);
    this.graph = new FlameGraph(this.body, {
      onZoom: node => {
        // the graph already shows this zoom: record it so the URL round trip does not redraw
        const zoom = node > 0 ? this.tree.pathOf(node).join(';') : '';
        this.applied.zoom = zoom;
        this.drawCrumbs();
        state.update({ zoom: zoom || undefined });
      },
      describe: node => this.describe(node),
      colorOf: options.colorOf,
    });
    this.drawLegend();
  }

  /** Releases the graph (its resize observer and canvas). */
  destroy() {
    this.graph.destroy();
  }

  commitSearch() {
    const value = this.searchInput.value.trim();
    state.update({ search: value || undefined });
  }

  describe(node) {
    const t = this.tree, unit = this.options.unit;
    const all = t.total[0] || 1;
    const rows = this.options.describe ? this.options.describe(node) : [
      ['Total', formatWeight(t.total[node], unit) + '  (' + formatPercent(t.total[node] / all) + ' of all)'],
      ['Self', formatWeight(t.self[node], unit) + '  (' + formatPercent(t.self[node] / all) + ')'],
    ];
    const zoom = this.graph.zoom;
    if (zoom > 0 && node !== zoom && this.tree.depth[node] > this.tree.depth[zoom]) {
      rows.push(['Of zoomed frame', formatPercent(t.total[node] / (t.total[zoom] || 1))]);
    }
    const type = FRAME_TYPES[t.type[node]];
    if (node > 0 && type) rows.push(['Type', type.label]);
    return rows;
  }

  /** Shows a tree and applies search and zoom from the current URL state. */
  show(tree, st, { inverted = false } = {}) {
    this.tree = tree;
    this.graph.setTree(tree, { inverted });
    this.applied = {};
    this.apply(st, true);
  }

  /** Applies search/zoom state; redraws only what changed. */
  apply(st, force = false) {
    if (!this.tree) return;
    let dirty = force;
    const search = st.search || '';
    if (force || search !== this.applied.search) {
      this.searchInput.value = search;
      this.applySearch(search);
      dirty = true;
    }
    const zoom = st.zoom || '';
    if (force || zoom !== this.applied.zoom) {
      const path = zoom ? zoom.split(';') : [];
      const found = this.tree.findPath(path);
      if (!found.complete && path.length) toast('Part of the zoomed path is not in this view; showing its closest frame');
      this.graph.setZoom(found.node);
      this.drawCrumbs();
      dirty = true;
    }
    this.applied = { search, zoom };
    if (dirty) this.graph.render();
  }

  applySearch(pattern) {
    this.matchInfo.classList.remove('error');
    if (!pattern) { this.graph.setSearch(null); this.matchInfo.textContent = ''; this.searchResult = null; return; }
    let regex;
    try { regex = new RegExp(pattern); } catch (e) {
      this.graph.setSearch(null);
      this.matchInfo.textContent = 'Invalid regex: ' + e.message;
      this.matchInfo.classList.add('error');
      return;
    }
    const result = this.tree.search(regex);
    this.searchResult = result;
    this.graph.setSearch(result);
    this.matchInfo.textContent = result.nodes
      ? `Matched ${formatPercent(result.share)} of all \u00b7 ${formatWeight(result.matched, this.options.unit)}`
      : 'No frame matches';
    this.matchInfo.dataset.share = result.share.toFixed(6);
  }

  drawCrumbs() {
    clear(this.crumbs);
    const t = this.tree, zoom = this.graph.zoom;
    const chain = [];
    for (let a = zoom; a > 0; a = t.parent[a]) chain.push(a);
    chain.reverse();
    this.crumbs.appendChild(el('button', { type: 'button', class: 'crumb', text: 'all',
      onclick: () => state.update({ zoom: undefined }) }));
    const shown = chain.length > 6 ? [chain[0], -1, ...chain.slice(-4)] : chain;
    for (const node of shown) {
      this.crumbs.appendChild(el('span', { class: 'crumb-sep', text: '\u203a' }));
      if (node < 0) { this.crumbs.appendChild(el('span', { class: 'crumb-gap', text: '\u2026' })); continue; }
      this.crumbs.appendChild(el('button', { type: 'button', class: 'crumb', text: t.nameOf(node), title: t.nameOf(node),
        onclick: () => state.update({ zoom: t.pathOf(node).join(';') }) }));
    }
    this.resetButton.disabled = zoom === 0;
    this.crumbs.dataset.path = chain.map(n => t.nameOf(n)).join(';');
  }

  drawLegend() {
    clear(this.legend);
    if (this.options.legend === 'diff') {
      this.legend.append(el('span', { class: 'swatch', style: 'background:hsl(2,80%,55%)' }), 'grows',
        el('span', { class: 'swatch', style: 'background:hsl(214,80%,55%)' }), 'shrinks',
        el('span', { class: 'hint', text: 'width = mean share of both; colour intensity = size of change' }));
      return;
    }
    for (const t of FRAME_TYPES) {
      this.legend.append(el('span', { class: 'swatch', style: `background:${frameColor(FRAME_TYPES.indexOf(t), '')}` }), t.label);
    }
    this.legend.append(el('span', { class: 'swatch', style: 'background:hsl(300,70%,62%)' }), 'search match');
  }

  focusMethod(name) {
    const node = this.tree.heaviest(name);
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    state.update({ search: '^' + escaped + '$', zoom: node > 0 ? this.tree.pathOf(node).join(';') : undefined });
  }

  exportCollapsed() {
    download(this.options.fileName + '.collapsed.txt', new Blob([this.tree.collapsed()], { type: 'text/plain' }));
  }

  exportSvg() {
    download(this.options.fileName + '.svg', new Blob([this.graph.toSvg(this.options.fileName)], { type: 'image/svg+xml' }));
  }

  async exportPng() {
    download(this.options.fileName + '.png', await this.graph.toPng());
  }
}
