// Every API URL is built here (docs/http-api.md), for api.js and for boot.js, which asks for a linked view's data
// before the rest of the code has loaded; the responses boot.js started (and a flame graph's tree it built from one)
// wait here until a page takes them.
// Imports nothing: boot.js cannot run before this module has arrived.
// The server writes a linked view's metadata, flame graph and diff URLs into the page's head as these build them
// (IndexPage.earlyData, which reads SELECTION_KEYS, DIFF_KEYS and RUNS_DIFF_KEYS from this file), so that boot.js's requests take those
// answers: a change to how these URLs are built changes it there.

// the binary flame graph, diff and live heap are read as typed arrays in the machine's byte order; they are little-endian
const FORMAT = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 'binary' : undefined;

/** A query string of the given parameters, leaving out empty ones; '' when none is left. */
function query(params) {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') out.set(k, v);
  const s = out.toString();
  return s ? '?' + s : '';
}

const recordingPath = id => '/api/recordings/' + encodeURIComponent(id);

// one line each, a list of quoted names: IndexPage reads them from this file
const SELECTION_KEYS = ['kind', 'from', 'to', 'threads', 'states', 'source', 'weight'];
const DIFF_KEYS = ['kind', 'mode', 'weight', 'states', 'source', 'baseFrom', 'baseTo', 'baseThreads', 'baseStates', 'baseSource', 'targetFrom', 'targetTo', 'targetThreads', 'targetStates', 'targetSource'];
const RUNS_DIFF_KEYS = ['targetQ', 'kind', 'mode', 'weight', 'states', 'source', 'baseFrom', 'baseTo', 'targetFrom', 'targetTo'];

const pick = (keys, view) => Object.fromEntries(keys.map(k => [k, view[k]]));

/** The sample selection every view of one recording shares, as the page's URL state has it (docs/ui.md). */
const selection = view => pick(SELECTION_KEYS, view);

/** The diff's parameters of a view: kind, mode, weight, states, source, and each side's own range, threads, states, source. */
export function diffSelection(view) {
  return pick(DIFF_KEYS, view);
}

export const urls = {
  recordings: (q, limit, offset) => '/api/recordings' + query({ q, limit, offset }),
  /** An upload; a run's part names its run, part number and whether it is the last (docs/http-api.md, Runs). */
  upload: ({ run, chunk, last } = {}) => '/api/recordings' + query({ run, chunk, last: last ? 'true' : undefined }),
  recording: id => recordingPath(id),
  original: id => recordingPath(id) + '/original',
  heap: id => recordingPath(id) + '/heap',
  /** The live heap at a GC (the default GC when gc is undefined), the objects allocated in [from, to) when given. */
  live: (id, gc, from, to) => recordingPath(id) + '/live' + query({ gc, from, to, format: FORMAT }),
  /** Each class's live bytes over the GCs, the suspects ranked by growth, and the heap page's findings. */
  growth: (id, by) => recordingPath(id) + '/heap/growth' + query({ by }),
  /** The live heap at one GC against another, of one recording or two (undefined GC: each side's default); mode
   * relative tests shares, absent bytes. */
  heapDiff: (base, baseGc, target, targetGc, mode) => '/api/heap/diff' + query({ base, baseGc, target, targetGc, mode }),
  /** The flame graph of a view: its kind, range, threads, states, source, weight and invert. */
  flame: (id, view) => recordingPath(id) + '/flame'
    + query({ ...selection(view), invert: view.invert === '1' ? 'true' : undefined, format: FORMAT }),
  /** How the samples through one frame (its path as zoom= names it; in the view's graph, inverted or not) divide among thread states. */
  frameStates: (id, view, path) => recordingPath(id) + '/frame-states'
    + query({ ...selection(view), invert: view.invert === '1' ? 'true' : undefined, path }),
  /** One method's callers and callees in the same selection. */
  sandwich: (id, view, method) => recordingPath(id) + '/sandwich' + query({ ...selection(view), method, format: FORMAT }),
  /** A diff: the kind, mode, and the selection shared by both sides or each side's own (baseFrom, targetStates, …). */
  diff: (base, target, view) => '/api/diff' + query({ base, target, ...diffSelection(view), format: FORMAT }),
  /** Both sides' collapsed stacks, `stack BASE TARGET` per line. */
  diffCollapsed: (base, target, view) => '/api/diff/collapsed' + query({ base, target, ...diffSelection(view) }),
  /** A lane per thread: samples of the kind (its states and source) per bucket of the recording's timeline. */
  threads: (id, { kind, states, source }, limit) => recordingPath(id) + '/threads' + query({ kind, states, source, limit }),
  /** The runs a recordings query finds on one time axis: samples per bucket per kind (epoch ms). */
  timeline: (q, kind, buckets) => '/api/timeline' + query({ q, kind, buckets }),
  /** One flame graph of the runs' samples in [from, to), epoch ms. */
  mergedFlame: (q, view) => '/api/merged/flame' + query({ q, kind: view.kind, from: view.from, to: view.to,
    states: view.states, source: view.source, weight: view.weight, invert: view.invert === '1' ? 'true' : undefined, format: FORMAT }),
  /** A diff of two ranges (baseFrom…targetTo, epoch ms) across the runs of q (the target's of targetQ when given). */
  mergedDiff: (q, view) => '/api/merged/diff' + query({ q, ...pick(RUNS_DIFF_KEYS, view), format: FORMAT }),
  /** Methods across recordings (the recordings page's method: hits). */
  methodSearch: (q, limit) => '/api/search' + query({ q, limit }),
};

/** The page an address shows when it names none. */
export function defaultPage(id, base) {
  return id ? (base ? 'diff' : 'recording') : 'recordings';
}

const early = new Map(), made = new Map();

/** Starts a GET now, for a page to take later with takeEarly. */
export function fetchEarly(url) {
  early.set(url, fetch(url));
}

/** The response of the request started early for this URL, if any; each is handed out once. */
export function takeEarly(url) {
  const response = early.get(url);
  early.delete(url);
  return response;
}

/** Whether the response started early for this URL is still there for a page to take. */
export function hasEarly(url) {
  return early.has(url);
}

/** Keeps what was made of an early response before the page's code ran (a flame graph's tree), for takeMade. */
export function keepMade(url, value) {
  made.set(url, value);
}

/** What was made for this URL's view, if anything; the first page to ask drops the rest (no page will show them). */
export function takeMade(url) {
  const value = made.get(url);
  made.clear();
  return value;
}
