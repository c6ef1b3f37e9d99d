// Reads the binary flame graph (format=binary, docs/http-api.md): a JSON header with the dictionaries, then
// typed-array columns used in place, so a 160 000-node tree costs no JSON parsing and no per-node copies.

const MAGIC = 'JFWF';
const VERSION = 1;

/** The byte order of typed arrays is the machine's; the format is little-endian. */
export const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Returns {kind, unit, total, samples, names, nodes: {total, name, count, typeIndex, types}, search}. */
export function decodeFlame(buffer) {
  const view = new DataView(buffer);
  if (buffer.byteLength < 16 || String.fromCharCode(...new Uint8Array(buffer, 0, 4)) !== MAGIC) {
    throw new Error('Not a binary flame graph');
  }
  const version = view.getUint32(4, true);
  if (version !== VERSION) throw new Error('Unsupported flame graph format version ' + version);
  const headerLength = view.getUint32(8, true);
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 16, headerLength)));
  const n = header.nodes, hits = header.search ? header.search.nodes : 0;
  let at = 16 + headerLength;
  const take = (Type, length) => {
    const bytes = length * Type.BYTES_PER_ELEMENT;
    if (at + bytes > buffer.byteLength) throw new Error('Truncated flame graph');
    const column = new Type(buffer, at, length);
    at += bytes;
    return column;
  };
  const columns = header.columns || {};
  const total = take(columns.total === 'u32' ? Uint32Array : Float64Array, n);
  const count = take(Int32Array, n), hitNodes = take(Int32Array, hits);
  const name = take(columns.name === 'u16' ? Uint16Array : Int32Array, n), typeIndex = take(Uint8Array, n);
  const search = header.search ? { ...header.search, nodes: hitNodes } : undefined;
  return { kind: header.kind, unit: header.unit, total: header.total, samples: header.samples, names: header.names,
    nodes: { total, name, count, typeIndex, types: header.types }, search };
}
