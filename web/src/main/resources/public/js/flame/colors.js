// Frame colours by frame type (what a JVM engineer expects from async-profiler's palette: green Java,
// aqua inlined, yellow C++, red native, orange kernel) and the diff colour scale.

export const FRAME_TYPES = [
  { type: 'jit', label: 'Java (JIT)', hue: 130, sat: 50, light: 52 },
  { type: 'inlined', label: 'Inlined', hue: 180, sat: 50, light: 50 },
  { type: 'c1', label: 'C1 compiled', hue: 95, sat: 50, light: 55 },
  { type: 'interpreted', label: 'Interpreted', hue: 70, sat: 60, light: 55 },
  { type: 'native', label: 'Native', hue: 5, sat: 65, light: 62 },
  { type: 'cpp', label: 'C++ (JVM)', hue: 45, sat: 80, light: 52 },
  { type: 'kernel', label: 'Kernel', hue: 25, sat: 85, light: 58 },
  { type: 'unknown', label: 'Other', hue: 220, sat: 8, light: 68 },
];

const BY_TYPE = new Map(FRAME_TYPES.map((t, i) => [t.type, i]));
export const UNKNOWN_TYPE = BY_TYPE.get('unknown');

export function typeCode(type, name) {
  const code = BY_TYPE.get(String(type || '').toLowerCase());
  if (code !== undefined && code !== UNKNOWN_TYPE) return code;
  return name ? guessType(name) : UNKNOWN_TYPE;
}

/**
 * Frames without a type (collapsed-text uploads): async-profiler's suffixes (_[j] _[i] _[0] _[1] _[k]) when
 * present, else C++ for "::", Java for dotted names, native for the rest.
 */
export function guessType(name) {
  const suffix = /_\[([jik01])\]$/.exec(name);
  if (suffix) return BY_TYPE.get({ j: 'jit', i: 'inlined', k: 'kernel', 0: 'interpreted', 1: 'c1' }[suffix[1]]);
  if (name.includes('::')) return BY_TYPE.get('cpp');
  if (/^[\w$]+(\.[\w$<>\-]+)+$/.test(name) || name.includes('/')) return BY_TYPE.get('jit');
  if (/^\[.*\]$/.test(name) || name === 'all') return UNKNOWN_TYPE;
  return BY_TYPE.get('native');
}

function hash(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0) / 4294967295;
}

/** Colour of a frame: its type's hue, lightness varied by name so neighbours stay distinguishable. */
export function frameColor(code, name) {
  const t = FRAME_TYPES[code] || FRAME_TYPES[UNKNOWN_TYPE];
  const jitter = hash(name) * 14 - 7;
  return `hsl(${t.hue + jitter / 2},${t.sat}%,${Math.round(t.light + jitter)}%)`;
}

export const MATCH_COLOR = 'hsl(300,70%,62%)';
export const ROOT_COLOR = 'hsl(220,10%,78%)';
export const ANCESTOR_ALPHA = 0.55;

/** Diff colour: red where the frame grows, blue where it shrinks; intensity 0..1 = size of change. */
export function diffColor(delta, maxAbs) {
  if (!maxAbs || !delta) return 'hsl(0,0%,88%)';
  const intensity = Math.min(1, Math.sqrt(Math.abs(delta) / maxAbs));
  const light = Math.round(92 - 42 * intensity);
  return delta > 0 ? `hsl(2,80%,${light}%)` : `hsl(214,80%,${light}%)`;
}
