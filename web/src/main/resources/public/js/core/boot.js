// The page's entry, the one script index.html names: it asks for the data of the view the address links to, then
// runs the page's code (app.js), whose modules the head names, so the browser is fetching them already.

import { defaultPage, fetchEarly, hasEarly, keepMade, urls } from './urls.js';

performance.mark('workbench:boot');

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
// the view as the page reads it (state.js): the first value of each parameter
const view = Object.fromEntries([...params.keys()].map(k => [k, params.get(k)]));
const id = param('id'), base = param('base'), kind = param('kind');
const page = param('page') || defaultPage(id, base);
// a range that ends before it starts (or is no number) shows no graph: the page explains it instead
const rangeOk = (from, to) => [from, to].every(v => v === undefined || /^\d+$/.test(v)) && !(from && to && Number(from) > Number(to));
if (id && (page === 'recording' || page === 'heap' || page === 'diff')) fetchEarly(urls.recording(id));
if (id && page === 'recording' && kind && rangeOk(param('from'), param('to'))) {
  const url = urls.flame(id, view);
  fetchEarly(url);
  buildEarly(url, api => api.flame(id, view), (flame, { buildTree }) => ({ flame, tree: buildTree(flame) }));
}
if (id && page === 'diff' && base) {
  // a diff of two ranges of one recording needs its metadata once
  if (base !== id) fetchEarly(urls.recording(base));
  // without a kind in the address the page picks one from both recordings' kinds
  if (kind && ['base', 'target'].every(side => rangeOk(param(side + 'From'), param(side + 'To')))) {
    const url = urls.diff(base, id, view);
    fetchEarly(url);
    // the merged tree too, as the flame graph's above; the diff page takes it for the same URL
    buildEarly(url, api => api.diff(base, id, view), (diff, { buildDiffTree }) => ({ diff, ...buildDiffTree(diff) }));
  }
}

// a diff of runs (no recording named): the search's kinds, and the diff, asked for together rather than one after the other
if (page === 'diff' && !id && !base) {
  const q = param('q');
  fetchEarly(urls.recordings(q, 1, 0));
  const whole = (from, to) => /^\d+$/.test(from || '') && /^\d+$/.test(to || '') && Number(from) < Number(to);
  if (kind && ['base', 'target'].every(side => whole(param(side + 'From'), param(side + 'To')))) {
    const url = urls.mergedDiff(q, view);
    fetchEarly(url);
    buildEarly(url, api => api.mergedDiff(q, view), (diff, { buildDiffTree }) => ({ diff, ...buildDiffTree(diff) }));
  }
}

if (page === 'service') fetchEarly(urls.timeline(param('q')));

// The page's modules are named in the head (modulepreload links the server writes, IndexPage) and asked for while
// the browser reads it. A link with a regex search (search= without literal=1) also needs the engine for its first
// paint, which other views load on the first regex search.
if (['recording', 'diff', 'heap', 'service'].includes(page) && param('search') && param('literal') !== '1') {
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  // beside this module, under the path the page named it by (IndexPage: one the browser keeps)
  link.href = new URL('../flame/linearregex.js', import.meta.url).href;
  document.head.appendChild(link);
}
import('../app.js');
