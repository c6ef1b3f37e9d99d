// Tiny DOM helpers. Every string goes in through textContent or setAttribute, never innerHTML,
// because frame names, labels, thread and file names come from uploaded files.

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (value === true) node.setAttribute(key, '');
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.appendChild(child);
    else node.appendChild(document.createTextNode(String(child)));
  }
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function formatBytes(bytes) {
  let v = Number(bytes) || 0, u = 0;
  while (Math.abs(v) >= 1024 && u < UNITS.length - 1) { v /= 1024; u++; }
  return (u === 0 ? v.toFixed(0) : v.toFixed(v >= 100 ? 0 : 1)) + ' ' + UNITS[u];
}

export function formatDuration(ms) {
  ms = Number(ms) || 0;
  if (ms < 1000) return ms.toFixed(0) + ' ms';
  const s = ms / 1000;
  if (s < 60) return s.toFixed(s < 10 ? 2 : 1) + ' s';
  const m = Math.floor(s / 60), rest = Math.round(s % 60);
  if (m < 60) return m + ' min ' + rest + ' s';
  return Math.floor(m / 60) + ' h ' + (m % 60) + ' min';
}

/**
 * A count as en-US writes it (1,234,567.125: groups of three, at most three decimals). Not with Intl.NumberFormat: the
 * page's first one loads the locale's data, tens of milliseconds of a first paint's critical path.
 */
export function formatCount(n) {
  const v = Number(n) || 0;
  if (!(Math.abs(v) < 1e21)) return String(v);
  const [whole, fraction] = Math.abs(v).toFixed(3).split('.');
  const decimals = fraction.replace(/0+$/, '');
  const sign = v < 0 && (whole !== '0' || decimals) ? '-' : '';
  return sign + whole.replace(/\B(?=(\d{3})+$)/g, ',') + (decimals ? '.' + decimals : '');
}

/** Formats a weight in the kind's unit: samples, ns or bytes. */
export function formatWeight(value, unit) {
  if (unit === 'bytes') return formatBytes(value);
  if (unit === 'ns') return formatDuration(value / 1e6);
  if (unit === 'samples') return formatCount(value) + (Math.round(value) === 1 ? ' sample' : ' samples');
  return formatCount(value) + (unit ? ' ' + unit : '');
}

export function formatPercent(share, digits = 2) {
  return (100 * (Number(share) || 0)).toFixed(digits) + '%';
}

export function formatDate(millis) {
  if (!millis) return '';
  const d = new Date(millis);
  return d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

let toastTimer = 0;
export function toast(message, isError = false) {
  let box = document.getElementById('toast');
  if (!box) {
    box = el('div', { id: 'toast', role: 'status', 'aria-live': 'polite' });
    document.body.appendChild(box);
  }
  box.textContent = message;
  box.className = isError ? 'show error' : 'show';
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.className = ''; }, 2600);
}

/** Offers a Blob as a file download. */
export function download(filename, blob) {
  const url = URL.createObjectURL(blob);
  const a = el('a', { href: url, download: filename });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A recording's labels as k=v chips. */
export function labelChips(labels) {
  return Object.entries(labels || {}).map(([k, v]) => el('span', { class: 'chip', text: k + '=' + v }));
}

/**
 * A method or class name with its package muted and Class.method emphasised; the cell's text stays the full name.
 */
export function nameCell(name, attrs = {}) {
  const text = String(name);
  const cut = packageEnd(text);
  return el('td', { class: 'method', title: text, ...attrs },
    cut > 0 ? el('span', { class: 'pkg', text: text.slice(0, cut) }) : null,
    el('span', { class: 'leaf', text: text.slice(cut) }));
}

/** A Java frame name split into its package ("java.util.") and the rest ("HashMap.resize"); pkg is '' for others. */
export function splitName(name) {
  const text = String(name);
  const cut = packageEnd(text);
  return { pkg: text.slice(0, cut), leaf: text.slice(cut) };
}

function packageEnd(name) {
  if (!/^[\w$.]+(\[\])*$/.test(name)) return 0;
  const parts = name.split('.');
  let i = 0, at = 0;
  // package segments start lower case; the class (and method) follow
  while (i < parts.length - 1 && /^[a-z_]/.test(parts[i])) { at += parts[i].length + 1; i++; }
  // no class name after them (native names such as libc.so.6.memcpy or finish_task_switch.isra.0): no package
  return /^[A-Z$]/.test(parts[i]) ? at : 0;
}

const D3_URL = '/webjars/d3/7.9.0/dist/d3.min.js';
let d3Loading = null;

/**
 * Loads D3 (only the charts use it) on first call and resolves once it is defined. Not loading it with the page
 * keeps its 280 KB off the connections that carry a flame graph's own code and data.
 */
export function d3Ready() {
  if (typeof d3 !== 'undefined') return Promise.resolve();
  return d3Loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = D3_URL;
    script.onload = () => { performance.mark('workbench:d3'); resolve(); };
    script.onerror = () => { d3Loading = null; reject(new Error('Could not load D3 from ' + D3_URL)); };
    document.head.appendChild(script);
  });
}

/**
 * Resolves in a task after the browser's next frame, so what was drawn before the call is on screen before the code
 * after the await runs: a page's graph first, its tables after. A timeout alone may run before the frame; a hidden
 * tab has no frames, so there it is a timeout.
 */
export function afterPaint() {
  return new Promise(resolve => (document.hidden ? setTimeout(resolve, 0)
    : requestAnimationFrame(() => setTimeout(resolve, 0))));
}
