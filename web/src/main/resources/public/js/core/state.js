// The URL is the single source of view state: every page reads its state from location.search and
// every user action that changes the view writes a new URL (pushState), so back/forward and permalinks
// restore the same view. Keys are short but readable:
//   page   recordings | recording | diff | heap
//   id     recording id;  base  baseline id (diff)
//   q      recordings search query
//   kind   cpu | wall | alloc | live | lock | nativemem | leak
//   from,to  time range in ms since the recording start
//   threads  comma-separated thread ids
//   search   regex highlighted in the flame graph
//   zoom     zoomed frame as its path of names from the root, joined by ';'
//   invert   1 for the inverted (callers) tree
//   gc       GC index on the heap page
//   sort     hot-methods column (self | total)

import { defaultPage } from './urls.js';

const KEYS = ['page', 'id', 'base', 'q', 'kind', 'from', 'to', 'threads', 'search', 'zoom', 'invert', 'gc', 'sort'];

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
