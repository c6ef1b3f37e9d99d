// The page's entry, the one script index.html names: it asks for the data of the view the address links to, then
// loads the page's code. Data first: the modules would otherwise take the browser's six connections per host
// (HTTP/1.1) ahead of it.

import { defaultPage, fetchEarly, hasEarly, keepMade, urls } from './urls.js';

performance.mark('workbench:boot');

// the modules a page's first paint needs; preloading them saves the import waterfall (one round trip per level)
// (the regex engine, flame/linearregex, loads with the first regex search)
const FLAME = ['core/api', 'flame/colors', 'flame/names', 'flame/search', 'flame/flametree', 'flame/flamegraph', 'flame/flamepanel'];
const PAGE_MODULES = {
  recordings: ['core/api'],
  // its timeline, side tables and compare picker load after the first paint
  recording: [...FLAME, 'components/threadfilter', 'components/samplefilters'],
  diff: [...FLAME, 'components/samplefilters'],
  heap: [...FLAME, 'components/timeline', 'components/gcview', 'components/heapgrowth', 'components/comparepicker'],
  service: [...FLAME, 'components/runlanes', 'components/samplefilters'],
  heapdiff: ['core/api'],
};

/**
 * The graph's tree is decoded and laid out as soon as the early response for url and the two modules that read it
 * are in, while the rest of the page's code still loads and the main thread would wait; the page takes it if it shows
 * this URL's view. A page that took the response first reads it itself.
 */
function buildEarly(url, read, build) {
  Promise.all([import('./api.js'), import('../flame/flametree.js')]).then(([{ api }, flametree]) => {
    if (hasEarly(url)) keepMade(url, read(api).then(data => build(data, flametree), e => ({ error: e })));
  }, () => {}); // modules that did not load: the page's own import of them says so
}

const params = new URLSearchParams(location.search);
const param = name => params.get(name) || undefined;
const id = param('id'), base = param('base'), kind = param('kind');
const page = param('page') || defaultPage(id, base);
if (id && (page === 'recording' || page === 'heap' || page === 'diff')) fetchEarly(urls.recording(id));
// a range that ends before it starts (or is no number) shows no graph: the page explains it instead
const from = param('from'), to = param('to');
const rangeOk = [from, to].every(v => v === undefined || /^\d+$/.test(v)) && !(from && to && Number(from) > Number(to));
if (id && page === 'recording' && kind && rangeOk) {
  const view = Object.fromEntries(params), url = urls.flame(id, view);
  fetchEarly(url);
  buildEarly(url, api => api.flame(id, view), (flame, { buildTree }) => ({ flame, tree: buildTree(flame) }));
}
if (id && page === 'diff' && base) {
  fetchEarly(urls.recording(base));
  // without a kind in the address the page picks one from both recordings' kinds
  if (kind) {
    const view = Object.fromEntries(params), url = urls.diff(base, id, view);
    fetchEarly(url);
    // the merged tree too, as the flame graph's above; the diff page takes it for the same URL
    buildEarly(url, api => api.diff(base, id, view), (diff, { buildDiffTree }) => ({ diff, ...buildDiffTree(diff) }));
  }
}

if (page === 'service') fetchEarly(urls.timeline(param('q')));

const modules = ['app', 'core/dom', 'core/state', 'pages/common'];
if (PAGE_MODULES[page]) modules.push('pages/' + page, ...PAGE_MODULES[page]);
// a link with a regex search (search= without literal=1) needs the engine for its first paint
if (PAGE_MODULES[page] && param('search') && param('literal') !== '1') modules.push('flame/linearregex');
for (const m of modules) {
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  // beside this module, under the path the page named it by (IndexPage: one the browser keeps)
  link.href = new URL('../' + m + '.js', import.meta.url).href;
  document.head.appendChild(link);
}
import('../app.js');
