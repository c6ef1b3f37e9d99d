// The URL is the single source of view state: every page reads its state from location.search and
// every user action that changes the view writes a new URL (pushState), so back/forward and permalinks
// restore the same view. Keys are short but readable:
//   page   recordings | recording | diff | heap | heapdiff | service
//   id     recording id;  base  baseline id (diff)
//   q      recordings search query; on the service page and a diff of runs, the query that finds the runs
//   targetQ  a diff of runs: the target side's query when it is not q
//   kind   cpu | wall | alloc | live | lock | nativemem | leak
//   from,to  time range in ms since the recording start (service page: epoch ms)
//   threads  comma-separated thread ids
//   search   text found in frame names, highlighted in the flame graph (a regex unless literal)
//   literal  1: search is plain text;  matchCase  1: search is case-sensitive
//   zoom     zoomed frame as its path of names from the root, each escaped as collapsed text writes it, joined by ';'
//   invert   1 for the inverted (callers) tree
//   by       stack: the heap page's growth per allocation stack, not per class
//   gc       GC index on the heap page (the target's in a heap diff);  baseGc  the baseline's GC in a heap diff
//   sort     side table order (self | total | name)
//   states   thread states shown, comma-separated (as recorded: STATE_RUNNABLE,...)
//   source   the sampler shown where a kind has several
//   weight   samples: weigh by sample count instead of the kind's unit (allocations)
//   method   the method whose sandwich (callers and callees) is shown
//   side     tree: the call tree beside the graph instead of the hot methods
//   filter   the side table's filter text
//   lanes    1: the threads-over-time lanes are open
//   mode     absolute: the diff compares weight per second, not shares
//   baseFrom, baseTo, baseThreads, baseStates, baseSource (and target…): one side's own selection in a diff (a diff of
//            runs: epoch ms; the service page keeps a comparison's baseline range in baseFrom, baseTo)

import { defaultPage } from './urls.js';

const KEYS = ['page', 'id', 'base', 'q', 'targetQ', 'kind', 'source', 'states', 'weight', 'from', 'to', 'threads', 'method', 'search',
  'literal', 'matchCase', 'zoom', 'invert', 'gc', 'baseGc', 'by', 'side', 'sort', 'filter', 'lanes', 'mode',
  ...['base', 'target'].flatMap(side => ['From', 'To', 'Threads', 'States', 'Source'].map(k => side + k))];

export function readState(search = location.search) {
  const params = new URLSearchParams(search);
  const state = {};
  for (const key of KEYS) {
    const value = params.get(key);
    if (value !== null && value !== '') state[key] = value;
  }
  if (!state.page) state.page = defaultPage(state.id, state.base);
  return state;
}

export function toUrl(state) {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = state[key];
    if (value === undefined || value === null || value === '' || value === false) continue;
    if (key === 'page' && value === 'recordings') continue;
    params.set(key, value === true ? '1' : String(value));
  }
  // keep separators readable in shared links; URLSearchParams reads them back unchanged
  const query = params.toString().replace(/%3B/g, ';').replace(/%2C/g, ',').replace(/%3A/g, ':').replace(/%2F/g, '/');
  return location.pathname + (query ? '?' + query : '');
}

let listener = () => {};

export function onStateChange(fn) {
  listener = fn;
  window.addEventListener('popstate', () => listener(readState(), 'pop'));
}

/** Merges a change into the current state; a new history entry unless replace is set. */
export function update(change, { replace = false, reset = false } = {}) {
  const next = reset ? { ...change } : { ...readState(), ...change };
  for (const key of Object.keys(next)) if (next[key] === undefined || next[key] === null) delete next[key];
  const url = toUrl(next);
  if (url === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  listener(readState(), replace ? 'replace' : 'push');
}

export function parseIds(value) {
  return value ? value.split(',').map(s => s.trim()).filter(Boolean) : [];
}
