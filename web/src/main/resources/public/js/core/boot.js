// The page's entry, the one script index.html names: it asks for the data of the view the address links to, then
// loads the page's code. Data first: the modules would otherwise take the browser's six connections per host
// (HTTP/1.1) ahead of it.

import { defaultPage, fetchEarly, urls } from './urls.js';

performance.mark('workbench:boot');

// the modules a page's first paint needs; preloading them saves the import waterfall (one round trip per level)
const FLAME = ['core/api', 'flame/colors', 'flame/flametree', 'flame/flamegraph', 'flame/flamepanel'];
const PAGE_MODULES = {
  recordings: ['core/api'],
  recording: FLAME, // its timeline, hot-methods table and compare picker load after the first paint
  diff: FLAME,
  heap: [...FLAME, 'components/timeline'],
};

const params = new URLSearchParams(location.search);
const param = name => params.get(name) || undefined;
const id = param('id'), base = param('base'), kind = param('kind');
const page = param('page') || defaultPage(id, base);
if (id && (page === 'recording' || page === 'heap' || page === 'diff')) fetchEarly(urls.recording(id));
if (id && page === 'recording' && kind) {
  fetchEarly(urls.flame(id, { kind, from: param('from'), to: param('to'), threads: param('threads'), invert: param('invert') }));
}
if (id && page === 'diff' && base) {
  fetchEarly(urls.recording(base));
  // without a kind in the address the page picks one from both recordings' kinds
  if (kind) fetchEarly(urls.diff(base, id, kind));
}

const modules = ['app', 'core/dom', 'core/state', 'pages/common'];
if (PAGE_MODULES[page]) modules.push('pages/' + page, ...PAGE_MODULES[page]);
for (const m of modules) {
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.href = '/js/' + m + '.js';
  document.head.appendChild(link);
}
import('../app.js');
