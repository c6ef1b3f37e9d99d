// HTTP API client (docs/http-api.md); its URLs come from urls.js. Errors carry the server's {"error": "..."} message.

import { takeEarly, urls } from './urls.js';

export { urls };

// The binary flame graph (format=binary): a JSON header with the dictionaries, then typed-array columns used in
// place, so a 160 000-node tree costs no JSON parsing and no per-node copies. Here rather than in a module of its
// own: every page that reads a flame graph loads this file anyway, and each module is a request before the first paint.

const MAGIC = 'JFWF', DIFF_MAGIC = 'JFWD', SANDWICH_MAGIC = 'JFWS';
const VERSION = 1;

/** The JSON header of a binary response and a reader of its columns, each checked against the buffer's length. */
function binaryReader(buffer, magic, what) {
  if (buffer.byteLength < 16 || String.fromCharCode(...new Uint8Array(buffer, 0, 4)) !== magic) {
    throw new Error('Not a binary ' + what);
  }
  const view = new DataView(buffer);
  const version = view.getUint32(4, true);
  if (version !== VERSION) throw new Error(`Unsupported ${what} format version ${version}`);
  const headerLength = view.getUint32(8, true);
  if (16 + headerLength > buffer.byteLength) throw new Error('Truncated ' + what);
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 16, headerLength)));
  if (magic !== SANDWICH_MAGIC && (!Number.isInteger(header.nodes) || header.nodes < 0)) throw new Error('Bad node count in the ' + what);
  let at = 16 + headerLength;
  const take = (Type, length) => {
    const bytes = length * Type.BYTES_PER_ELEMENT;
    if (at + bytes > buffer.byteLength) throw new Error('Truncated ' + what);
    const column = new Type(buffer, at, length);
    at += bytes;
    return column;
  };
  return { header, take };
}

/**
 * Returns {kind, unit, total, samples, names, nodes: {total, name, count, typeIndex, types}, search}, and live: the
 * rest of a live-heap answer (/live?format=binary carries its flame graph this way); runs and omitted: the runs a
 * merged flame graph (/api/merged/flame) was made of.
 */
export function decodeFlame(buffer) {
  const { header, take } = binaryReader(buffer, MAGIC, 'flame graph');
  const n = header.nodes, hits = header.search ? header.search.nodes : 0;
  const columns = header.columns || {};
  const total = take(columns.total === 'u32' ? Uint32Array : Float64Array, n);
  const count = take(Int32Array, n), hitNodes = take(Int32Array, hits);
  const name = take(columns.name === 'u16' ? Uint16Array : Int32Array, n), typeIndex = take(Uint8Array, n);
  const search = header.search ? { ...header.search, nodes: hitNodes } : undefined;
  return { kind: header.kind, unit: header.unit, total: header.total, samples: header.samples, names: header.names,
    nodes: { total, name, count, typeIndex, types: header.types }, search, live: header.live,
    runs: header.runs, omitted: header.omitted };
}

/** The live heap at a GC in the JSON form's shape: {gc, usedAfter, liveSamples, sampledWeight, byClass, flame}. */
function decodeLive(buffer) {
  const flame = decodeFlame(buffer);
  if (!flame.live) throw new Error('No live-heap figures in the response');
  return { ...flame.live, flame };
}

/**
 * The binary diff (/api/diff?format=binary): the JSON form's fields, with nodes {base, target, name, count,
 * typeIndex, types} as typed arrays (no parent and self columns: FlameTree derives them from count).
 */
export function decodeDiff(buffer) {
  const { header, take } = binaryReader(buffer, DIFF_MAGIC, 'diff');
  const n = header.nodes, columns = header.columns || {};
  const Weight = columns.weight === 'u32' ? Uint32Array : Float64Array;
  const base = take(Weight, n), target = take(Weight, n), count = take(Int32Array, n);
  const name = take(columns.name === 'u16' ? Uint16Array : Int32Array, n), typeIndex = take(Uint8Array, n);
  // servers that test each node send its significance (+1 grew, -1 shrank, 0 not significant) last
  const significance = columns.significance === 'i8' ? take(Int8Array, n) : undefined;
  return { ...header, nodes: { base, target, name, count, typeIndex, types: header.types, significance } };
}

/**
 * The binary sandwich (/sandwich?format=binary): its figures {kind, unit, method, total, self, samples} and the
 * callers' and callees' trees, each a flame graph in its own binary form.
 */
export function decodeSandwich(buffer) {
  const { header } = binaryReader(buffer, SANDWICH_MAGIC, 'sandwich');
  const start = 16 + new DataView(buffer).getUint32(8, true);
  const part = ({ offset, length }) => {
    if (start + offset + length > buffer.byteLength) throw new Error('Truncated sandwich');
    return decodeFlame(buffer.slice(start + offset, start + offset + length));
  };
  return { ...header, callers: part(header.callers), callees: part(header.callees) };
}

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function request(path, options = {}) {
  let response;
  try {
    response = await ((!options.method && takeEarly(path)) || fetch(path, options));
  } catch (e) {
    throw new ApiError(0, 'Cannot reach the server: ' + e.message);
  }
  if (response.status === 204) return null;
  const text = await response.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = null; }
  if (!response.ok) {
    const message = body && body.error ? body.error : `HTTP ${response.status} ${response.statusText}`;
    throw new ApiError(response.status, message);
  }
  return body;
}

/** Reads a flame graph or diff response: the binary form, or the JSON error the server answers instead. */
async function readBinary(response, decode, what) {
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    throw new ApiError(response.status, (body && body.error) || `HTTP ${response.status}`);
  }
  if (!(response.headers.get('Content-Type') || '').startsWith('application/octet-stream')) return response.json();
  try {
    return decode(await response.arrayBuffer());
  } catch (e) {
    throw new ApiError(response.status, `Cannot read the ${what}: ${e.message}`);
  }
}

function binaryResponse(url, decode, what) {
  return (takeEarly(url) || fetch(url)).then(r => readBinary(r, decode, what),
    e => { throw new ApiError(0, 'Cannot reach the server: ' + e.message); });
}

export const api = {
  list: (q, limit = 200, offset = 0) => request(urls.recordings(q, limit, offset)),
  get: id => request(urls.recording(id)),
  remove: id => request(urls.recording(id), { method: 'DELETE' }),
  /** view: {kind, from, to, threads, states, source, weight, invert} as the page's URL state has them */
  flame: (id, view) => binaryResponse(urls.flame(id, view), decodeFlame, 'flame graph'),
  /** view: the diff page's URL state (kind, mode, and the shared or per-side selection) */
  diff: (base, target, view) => binaryResponse(urls.diff(base, target, view), decodeDiff, 'diff'),
  frameStates: (id, view, path) => request(urls.frameStates(id, view, path)),
  sandwich: (id, view, method) => binaryResponse(urls.sandwich(id, view, method), decodeSandwich, 'sandwich'),
  methodSearch: (q, limit = 200) => request(urls.methodSearch(q, limit)),
  threads: (id, view, limit = 1000) => request(urls.threads(id, view, limit)),
  heap: id => request(urls.heap(id)),
  timeline: (q, kind, buckets) => request(urls.timeline(q, kind, buckets)),
  /** view: the service page's URL state (kind, from, to in epoch ms, states, source, weight, invert) */
  mergedFlame: (q, view) => binaryResponse(urls.mergedFlame(q, view), decodeFlame, 'flame graph'),
  /** view: the diff page's URL state with epoch-ms ranges per side */
  mergedDiff: (q, view) => binaryResponse(urls.mergedDiff(q, view), decodeDiff, 'diff'),
  live: (id, gc, from, to) => binaryResponse(urls.live(id, gc, from, to), decodeLive, 'live heap'),
  growth: (id, by) => request(urls.growth(id, by)),
  heapDiff: (base, baseGc, target, targetGc, mode) => request(urls.heapDiff(base, baseGc, target, targetGc, mode)),
};

/**
 * Uploads one file with XMLHttpRequest so the page can show upload progress (fetch cannot).
 * onProgress receives a fraction 0..1, onSent is called once every byte is sent (the server then imports);
 * resolves with {recording, created}: created is false when the same bytes were stored before. run, chunk and last
 * post the file as a part of a run instead.
 */
export function upload(file, { name, labels, kind, onProgress, onSent, run, chunk, last } = {}) {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append('file', file, file.name);
    if (name) form.append('name', name);
    if (labels) form.append('labels', labels);
    if (kind) form.append('kind', kind);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', urls.upload({ run, chunk, last }));
    xhr.responseType = 'text';
    xhr.upload.onprogress = e => { if (e.lengthComputable && onProgress) onProgress(e.loaded / e.total); };
    xhr.upload.onload = () => { if (onSent) onSent(); };
    xhr.onerror = () => reject(new ApiError(0, 'Upload failed: the connection was lost'));
    xhr.onload = () => {
      let body = null;
      try { body = JSON.parse(xhr.responseText); } catch { body = null; }
      if (xhr.status >= 200 && xhr.status < 300) resolve({ recording: body, created: xhr.status === 201 });
      else reject(new ApiError(xhr.status, (body && body.error) || `HTTP ${xhr.status}`));
    };
    xhr.send(form);
  });
}
