// A flame graph with its toolbar: breadcrumb of the zoomed path, search (plain text or regex, case-insensitive unless
// asked, matches highlighted and the rest dimmed, the matched share, previous and next match), reset, and exports
// (collapsed text, SVG, PNG). Search and zoom live in the URL (state.js): search, literal, matchCase and zoom.

import { el, clear, download, formatPercent, formatWeight, toast } from '../core/dom.js';
import { FlameGraph } from './flamegraph.js';
import { FRAME_TYPES, frameColor } from './colors.js';
import { joinPath, shortName, splitPath } from './names.js';
import { loadRegexEngine, matchNames, regexEngineReady, searchMatcher } from './search.js';
import * as state from '../core/state.js';
import { stateLabel } from '../components/samplefilters.js';

export class FlamePanel {
  /**
   * options: {unit, fileName, legend: 'types' | 'diff', describe(node) extra rows, colorOf(node), extraTools: [nodes],
   * onView({tree, zoom, search}): after the zoom or search shown changed (zoom: a node; search: FlameTree.search's
   * answer or null), for views that follow the graph (tables); frameStates(path) -> a promise of the /frame-states
   * answer for a frame's path (joined as zoom= is), where the view's samples have thread states}
   */
  constructor(container, options = {}) {
    this.options = options;
    this.tree = null;
    this.applied = {};
    this.searchResult = null;
    // how a new search is read until the URL says otherwise: plain text, case-insensitive
    this.mode = { regex: false, matchCase: false };
    this.searchInput = el('input', { type: 'search', class: 'search', placeholder: 'Search frames  /',
      'aria-label': 'Search frames', id: 'flame-search', spellcheck: 'false', autocomplete: 'off' });
    this.searchInput.addEventListener('keydown', e => {
      if (e.key === 'Enter') {
        e.preventDefault();
        // Enter again on the search shown steps through its matches, as a browser's find does
        if (this.searchInput.value.trim() === (this.applied.search || '') && this.searchResult) this.step(e.shiftKey ? -1 : 1);
        else this.commitSearch();
      }
      if (e.key === 'Escape') { this.searchInput.value = ''; this.commitSearch(); this.searchInput.blur(); }
    });
    this.searchInput.addEventListener('change', () => this.commitSearch());
    const toggle = (id, text, title, key) => el('button', { type: 'button', class: 'search-toggle', id, text, title,
      'aria-label': title, 'aria-pressed': 'false', onclick: () => {
        this.mode[key] = !this.mode[key];
        this.showMode();
        if (this.searchInput.value.trim()) this.commitSearch();
      } });
    this.caseToggle = toggle('search-case', 'Aa', 'Match case', 'matchCase');
    this.regexToggle = toggle('search-regex', '.*', 'Regular expression', 'regex');
    this.prevButton = el('button', { type: 'button', class: 'search-step', id: 'match-prev', text: '\u2039',
      title: 'Previous match (Shift+Enter)', 'aria-label': 'Previous match', disabled: true, onclick: () => this.step(-1) });
    this.nextButton = el('button', { type: 'button', class: 'search-step', id: 'match-next', text: '\u203a',
      title: 'Next match (Enter)', 'aria-label': 'Next match', disabled: true, onclick: () => this.step(1) });
    this.matchInfo = el('span', { class: 'match-info', id: 'match-info', 'aria-live': 'polite' });
    this.matchPosition = el('span', { class: 'match-position', id: 'match-position' });
    this.crumbs = el('nav', { class: 'crumbs', 'aria-label': 'Zoomed frame path' });
    this.exportMenu = el('details', { class: 'menu' },
      el('summary', { class: 'button', text: 'Export' }),
      el('div', { class: 'menu-items' },
        el('button', { type: 'button', text: 'Collapsed stacks (.txt)', id: 'export-collapsed', onclick: () => this.exportCollapsed() }),
        el('button', { type: 'button', text: 'SVG image', id: 'export-svg', onclick: () => this.exportSvg() }),
        el('button', { type: 'button', text: 'PNG image', id: 'export-png', onclick: () => this.exportPng() })));
    this.resetButton = el('button', { type: 'button', class: 'button', id: 'zoom-reset', text: 'Reset zoom',
      title: 'Reset zoom (Esc)', onclick: () => state.update({ zoom: undefined }) });
    const searchBox = el('div', { class: 'search-box', role: 'search' }, this.searchInput, this.caseToggle, this.regexToggle,
      this.prevButton, this.nextButton);
    const toolbar = el('div', { class: 'toolbar' }, searchBox, this.matchInfo, this.matchPosition,
      el('span', { class: 'spacer' }), ...(options.extraTools || []), this.resetButton, this.exportMenu);
    this.legend = el('div', { class: 'legend', 'aria-label': 'Frame colours' });
    this.body = el('div', { class: 'flame-body' });
    this.root = el('section', { class: 'flame-panel' }, toolbar, this.crumbs, this.body, this.legend);
    container.appendChild(this.root);
    this.graph = new FlameGraph(this.body, {
      onZoom: node => {
        // the graph already shows this zoom: record it so the URL round trip does not redraw
        const zoom = node > 0 ? joinPath(this.tree.pathOf(node)) : '';
        this.applied.zoom = zoom;
        this.drawCrumbs();
        this.changed();
        state.update({ zoom: zoom || undefined });
      },
      describe: node => this.describe(node),
      colorOf: options.colorOf,
      onTip: node => this.tipStates(node),
    });
    // a frame's thread states, asked for once the pointer rests on it: per path, for the tree shown
    this.stateAnswers = new Map();
    this.stateTimer = 0;
    this.drawLegend();
    this.showMode();
  }

  /** Releases the graph (its resize observer and canvas). */
  destroy() {
    clearTimeout(this.stateTimer);
    this.tipToken = null;
    this.graph.destroy();
  }

  /** The search as the URL keeps it: the text, literal=1 for plain text (absent: a regex), matchCase=1. */
  commitSearch() {
    const value = this.searchInput.value.trim();
    state.update({ search: value || undefined, literal: value && !this.mode.regex ? '1' : undefined,
      matchCase: value && this.mode.matchCase ? '1' : undefined });
  }

  showMode() {
    this.caseToggle.setAttribute('aria-pressed', String(this.mode.matchCase));
    this.regexToggle.setAttribute('aria-pressed', String(this.mode.regex));
    this.searchInput.placeholder = (this.mode.regex ? 'Search frames (regex)' : 'Search frames') + '  /';
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

  /**
   * Adds the thread states of the frame the tooltip shows, once the pointer has rested on it: answers (and requests
   * under way) are kept per path for the tree shown (a new view is a new tree); only the tooltip built last takes an
   * answer, so one that arrives after the pointer moved on, or twice, adds nothing.
   */
  tipStates(node) {
    clearTimeout(this.stateTimer);
    const token = this.tipToken = {};
    const load = this.options.frameStates;
    if (node < 0 || !load || !this.tree || this.tree.nameOf(node) === '[other]') return;
    const tree = this.tree, path = joinPath(tree.pathOf(node));
    const add = answer => {
      if (answer && tree === this.tree && token === this.tipToken) this.graph.addTipRows(node, this.stateRows(answer));
    };
    const known = this.stateAnswers.get(path);
    if (known && known.answer) { add(known.answer); return; }
    this.stateTimer = setTimeout(() => {
      let entry = this.stateAnswers.get(path);
      if (!entry) {
        entry = {};
        // an extra of the tooltip: a failure leaves it as it was, and the next rest on the frame asks again
        entry.promise = load(path).then(answer => (entry.answer = answer), () => { this.stateAnswers.delete(path); return null; });
        this.stateAnswers.set(path, entry);
      }
      entry.promise.then(add);
    }, 250);
  }

  /** Tooltip rows of a /frame-states answer: per state its weight and share of the frame's. */
  stateRows(answer) {
    if (!answer.states.length) return [];
    const unit = this.options.unit, all = answer.weight || 1;
    return [['Thread states', '', { class: 'tip-row tip-states-head' }],
      ...answer.states.map(s => [stateLabel(s.state), formatWeight(s.weight, unit) + '  (' + formatPercent(s.weight / all) + ')',
        { class: 'tip-row tip-state', dataset: { state: s.state } }])];
  }

  /** Shows a tree and applies search and zoom from the current URL state. */
  show(tree, st, { inverted = false } = {}) {
    this.tree = tree;
    this.stateAnswers.clear();
    this.graph.setTree(tree, { inverted });
    this.applied = {};
    this.names = null;
    this.apply(st, true);
  }

  /** Applies search/zoom state; redraws only what changed. */
  apply(st, force = false) {
    if (!this.tree) return;
    let dirty = force;
    const search = st.search || '';
    const mode = search ? { regex: st.literal !== '1', matchCase: st.matchCase === '1' } : this.mode;
    const searchKey = search ? [search, mode.regex, mode.matchCase].join('|') : '';
    if (force || searchKey !== this.applied.searchKey) {
      this.searchInput.value = search;
      this.mode = { ...mode };
      this.showMode();
      this.applySearch(search, mode);
      dirty = true;
    }
    const zoom = st.zoom || '';
    let zoomed = false;
    if (force || zoom !== this.applied.zoom) {
      const found = this.findZoom(zoom);
      if (!found.complete) toast('Part of the zoomed path is not in this view; showing its closest frame');
      this.graph.setZoom(found.node);
      this.drawCrumbs();
      dirty = zoomed = true;
    }
    this.applied = { search, searchKey, zoom };
    if (dirty) {
      this.graph.render();
      if (zoomed && !force) this.graph.revealZoom();
      this.changed();
    }
  }

  /** The node a zoom= path names: escaped names joined by ';' (links made before the escaping: names as they were). */
  findZoom(zoom) {
    if (!zoom) return { node: 0, complete: true };
    const found = this.tree.findPath(splitPath(zoom));
    if (found.complete || !zoom.includes('\\')) return found;
    const legacy = this.tree.findPath(zoom.split(';'));
    return legacy.complete ? legacy : found;
  }

  changed() {
    if (this.options.onView) this.options.onView({ tree: this.tree, zoom: this.graph.zoom, search: this.searchResult });
  }

  applySearch(text, mode) {
    this.matchInfo.classList.remove('error');
    delete this.matchInfo.dataset.share;
    this.position = -1;
    this.matchPosition.textContent = '';
    if (!text) { this.clearSearch(''); return; }
    if (mode.regex && !regexEngineReady()) {
      // the graph is drawn without the search meanwhile, and again with it once the engine is in
      this.clearSearch('Searching\u2026');
      const key = [text, mode.regex, mode.matchCase].join('|');
      loadRegexEngine().then(() => {
        if (!this.tree || this.applied.searchKey !== key) return;
        this.applySearch(text, mode);
        this.graph.render();
        this.changed();
      }, e => this.clearSearch('Cannot load the regex search: ' + e.message));
      return;
    }
    let matcher;
    try {
      matcher = searchMatcher(text, mode);
    } catch (e) {
      this.clearSearch('Invalid regex: ' + e.message);
      this.matchInfo.classList.add('error');
      return;
    }
    this.matcher = matcher;
    const result = this.searchResult = this.tree.search(matchNames(this.tree.names, matcher));
    this.graph.setSearch(result);
    this.matchInfo.textContent = result.nodes
      ? `Matched ${formatPercent(result.share)} of all \u00b7 ${formatWeight(result.matched, this.options.unit)}`
      : 'No frame matches';
    this.matchInfo.dataset.share = result.share.toFixed(6);
    this.prevButton.disabled = this.nextButton.disabled = result.outer.length === 0;
    this.matchPosition.textContent = result.outer.length ? `${result.outer.length} place${result.outer.length > 1 ? 's' : ''}` : '';
  }

  clearSearch(message) {
    this.graph.setSearch(null);
    this.searchResult = this.matcher = null;
    this.matchInfo.textContent = message;
    this.prevButton.disabled = this.nextButton.disabled = true;
  }

  /**
   * Moves to the next (1) or previous (-1) place the search matched (outermost matching frames, left to right): the
   * keyboard focus goes there, and the graph zooms to it when it is outside the zoomed frame or too narrow to see.
   */
  step(direction) {
    const outer = this.searchResult ? this.searchResult.outer : [];
    if (!outer.length) return;
    this.position = ((this.position < 0 ? (direction > 0 ? -1 : 0) : this.position) + direction + outer.length) % outer.length;
    const node = outer[this.position], t = this.tree, zoom = this.graph.zoom;
    this.matchPosition.textContent = `${this.position + 1} of ${outer.length}`;
    const inside = node >= zoom && node < zoom + t.count[zoom];
    if (!inside || this.graph.visibleWidth(node) < 4) {
      this.graph.setZoom(node);
      this.graph.render();
      this.applied.zoom = joinPath(t.pathOf(node));
      this.drawCrumbs();
      this.changed();
      // stepping through matches is one view change, not a history entry per match
      state.update({ zoom: this.applied.zoom || undefined }, { replace: true });
    }
    this.graph.canvas.focus({ preventScroll: true });
    this.graph.focusFrame(node);
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
      this.crumbs.appendChild(el('button', { type: 'button', class: 'crumb', text: shortName(t.nameOf(node)), title: t.nameOf(node),
        onclick: () => state.update({ zoom: joinPath(t.pathOf(node)) }) }));
    }
    this.resetButton.disabled = zoom === 0;
    this.crumbs.dataset.path = joinPath(chain.map(n => t.nameOf(n)));
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
    this.legend.append(el('span', { class: 'swatch match' }), 'search match');
  }

  /** Zooms to the heaviest frame of a method (a hot-methods row); the user's search stays as it is. */
  focusMethod(name) {
    const node = this.tree.heaviest(name);
    state.update({ zoom: node > 0 ? joinPath(this.tree.pathOf(node)) : undefined });
  }

  exportCollapsed() {
    this.exportMenu.open = false;
    download(this.options.fileName + '.collapsed.txt', new Blob([this.tree.collapsed()], { type: 'text/plain' }));
  }

  exportSvg() {
    this.exportMenu.open = false;
    download(this.options.fileName + '.svg', new Blob([this.graph.toSvg(this.options.fileName)], { type: 'image/svg+xml' }));
  }

  async exportPng() {
    this.exportMenu.open = false;
    download(this.options.fileName + '.png', await this.graph.toPng());
  }
}
