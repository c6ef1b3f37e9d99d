// Every API URL is built here (docs/http-api.md), for api.js and for boot.js, which asks for a linked view's data
// before the rest of the code has loaded; the responses boot.js started wait here until a page takes them.
// Imports nothing: boot.js cannot run before this module has arrived.

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

export const urls = {
  recordings: (q, limit, offset) => '/api/recordings' + query({ q, limit, offset }),
  upload: () => '/api/recordings',
  recording: id => recordingPath(id),
  original: id => recordingPath(id) + '/original',
  heap: id => recordingPath(id) + '/heap',
  live: (id, gc) => recordingPath(id) + '/live' + query({ gc, format: FORMAT }),
  /** The flame graph of a view: its kind, and range, threads and invert as the page's URL has them. */
  flame: (id, { kind, from, to, threads, invert }) => recordingPath(id) + '/flame'
    + query({ kind, from, to, threads, invert: invert === '1' ? 'true' : undefined, format: FORMAT }),
  diff: (base, target, kind) => '/api/diff' + query({ base, target, kind, format: FORMAT }),
};

/** The page an address shows when it names none. */
export function defaultPage(id, base) {
  return id ? (base ? 'diff' : 'recording') : 'recordings';
}

const early = new Map();

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
