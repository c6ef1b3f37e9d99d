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

/** A number 0..1 from a name (FNV-1a over its last 32 characters: the class and method, and a bounded cost). */
function hash(text) {
  let h = 2166136261;
  for (let i = Math.max(0, text.length - 32); i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0) / 4294967295;
}

/**
 * Colour of a frame: its type's hue, lightness varied by name so neighbours stay distinguishable; lighten (in
 * points) comes from the palette (negative in dark mode).
 */
export function frameColor(code, name, lighten = 0) {
  const t = FRAME_TYPES[code] || FRAME_TYPES[UNKNOWN_TYPE];
  const jitter = hash(name) * 14 - 7;
  return `hsl(${t.hue + jitter / 2},${t.sat}%,${Math.round(t.light + jitter + lighten)}%)`;
}

/** The same colour as frameColor as a number 0xRRGGBB, for drawing pixels. */
export function frameRgb(code, name, lighten = 0) {
  const t = FRAME_TYPES[code] || FRAME_TYPES[UNKNOWN_TYPE];
  const jitter = hash(name) * 14 - 7;
  return hslRgb(t.hue + jitter / 2, t.sat, Math.round(t.light + jitter + lighten));
}

/** hsl(h, s%, l%) as 0xRRGGBB (CSS's conversion). */
export function hslRgb(h, s, l) {
  s = Math.min(100, Math.max(0, s)) / 100;
  l = Math.min(100, Math.max(0, l)) / 100;
  const a = s * Math.min(l, 1 - l);
  const f = n => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return (f(0) << 16) | (f(8) << 8) | f(4);
}

let parser = null;
const parsed = new Map();

/** Any CSS colour as 0xRRGGBB (its alpha is dropped), parsed by the browser once per distinct text. */
export function cssRgb(color) {
  let rgb = parsed.get(color);
  if (rgb !== undefined) return rgb;
  parser ??= document.createElement('canvas').getContext('2d');
  parser.fillStyle = '#000';
  parser.fillStyle = color;
  const value = parser.fillStyle;
  if (value.startsWith('#')) rgb = parseInt(value.slice(1, 7), 16);
  else {
    const [r, g, b] = value.match(/[\d.]+/g).map(Number);
    rgb = (r << 16) | (g << 8) | b;
  }
  if (parsed.size > 4096) parsed.clear();
  parsed.set(color, rgb);
  return rgb;
}

/**
 * The canvas palette: what a canvas cannot take from CSS by itself. Its values are CSS custom properties of the
 * flame graph's element (app.css, "Flame graph canvas palette", with a prefers-color-scheme: dark set), read here
 * with these light-mode values as fallbacks.
 */
export const PALETTE = {
  label: ['--flame-label', '#1b1e24'],
  match: ['--flame-match', 'hsl(300,70%,62%)'],
  root: ['--flame-root', 'hsl(220,10%,78%)'],
  focus: ['--flame-focus', '#111827'],
  lighten: ['--flame-lighten', '0'],
  ancestorAlpha: ['--flame-ancestor-alpha', '0.55'],
  dimAlpha: ['--flame-dim-alpha', '0.28'],
};

/** The palette's values for an element: {label, match, root, focus, lighten (number), ancestorAlpha, dimAlpha}. */
export function readPalette(element) {
  const style = getComputedStyle(element), out = {};
  for (const [key, [property, fallback]] of Object.entries(PALETTE)) {
    const value = style.getPropertyValue(property).trim() || fallback;
    out[key] = /Alpha$|^lighten$/.test(key) ? (Number.parseFloat(value) || 0) : value;
  }
  return out;
}

export const MATCH_COLOR = PALETTE.match[1];

/** Diff colour: red where the frame grows, blue where it shrinks; intensity 0..1 = size of change. */
export function diffColor(delta, maxAbs) {
  if (!maxAbs || !delta) return 'hsl(0,0%,88%)';
  const intensity = Math.min(1, Math.sqrt(Math.abs(delta) / maxAbs));
  const light = Math.round(92 - 42 * intensity);
  return delta > 0 ? `hsl(2,80%,${light}%)` : `hsl(214,80%,${light}%)`;
}
