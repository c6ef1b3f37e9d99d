// Router: the URL picks the page; pages get state updates for everything else (see state.js).

import { el, clear, toast } from './core/dom.js';
import * as state from './core/state.js';
import { message } from './pages/common.js';

// loaded on first use: a page's first paint waits only for its own modules (core/boot.js preloads those)
performance.mark('workbench:app');

const PAGES = {
  recordings: () => import('./pages/recordings.js'),
  recording: () => import('./pages/recording.js'),
  diff: () => import('./pages/diff.js'),
  heap: () => import('./pages/heap.js'),
  service: () => import('./pages/service.js'),
  heapdiff: () => import('./pages/heapdiff.js'),
};
const TITLES = { recordings: 'Recordings', recording: 'Flame graph', diff: 'Diff', heap: 'Live heap', service: 'Service over time', heapdiff: 'Heap diff' };
const main = document.getElementById('app');
// the page shown: its key (page and recordings), its mount (resolves to {update} or null) and its lifetime, which
// ends when another page replaces it
let shown = null, mounted = null;

async function show(st) {
  // the pages of runs (the service page, a diff of ranges across runs) are a query's: another query is another page
  const runs = st.page === 'service' || (st.page === 'diff' && !st.base && !st.id);
  const key = [st.page, st.id, st.base, runs ? st.q : ''].join('|');
  if (shown && shown.key === key) {
    const entry = shown, page = await entry.page;
    if (page && shown === entry) await page.update(st);
    return;
  }
  if (shown) leave(shown);
  shown = null;
  clear(main);
  document.title = (TITLES[st.page] || 'JFR Workbench') + ' \u00b7 JFR Workbench';
  const load = PAGES[st.page];
  if (!load || (st.page !== 'recordings' && !runs && !st.id) || (st.page === 'diff' && !st.base && !runs) || (st.page === 'heapdiff' && !st.base)) {
    main.appendChild(message('Page not found', 'This link does not name a known view. Go back to the recordings list.'));
    return;
  }
  const holder = el('div', { class: 'page page-' + st.page });
  main.appendChild(holder);
  const entry = shown = { key, lifetime: new AbortController() };
  entry.page = load().then(module => module.mount(holder, st, entry.lifetime.signal)).then(page => {
    if (shown === entry) mounted = page;
    return page;
  }, e => {
    if (shown === entry) clear(holder).appendChild(message(e.status === 404 ? 'Recording not found' : 'Could not load this view', e.message));
    return null;
  });
  await entry.page;
}

/** Ends a page's lifetime: it releases what it registered (observers, timers, canvases) and drops pending loads. */
function leave(entry) {
  mounted = null;
  entry.lifetime.abort();
}

function copyLink() {
  const url = location.href;
  const done = () => toast('Link copied');
  if (navigator.clipboard && navigator.clipboard.writeText) {
    navigator.clipboard.writeText(url).then(done, () => fallbackCopy(url));
  } else fallbackCopy(url);
}

function fallbackCopy(url) {
  const input = el('input', { type: 'text', value: url, 'aria-label': 'Link to this view', class: 'copy-fallback' });
  document.body.appendChild(input);
  input.select();
  const ok = document.execCommand && document.execCommand('copy');
  input.remove();
  toast(ok ? 'Link copied' : 'Copy this link: ' + url);
}

function inField(e) {
  const t = e.target;
  return t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
}

document.addEventListener('keydown', e => {
  if (e.ctrlKey || e.metaKey || e.altKey || inField(e)) return;
  if (e.key === '/') {
    const box = document.getElementById('flame-search') || document.getElementById('recordings-search');
    if (box) { e.preventDefault(); box.focus(); box.select(); }
  } else if (e.key === 'Escape') {
    const open = document.querySelector('details[open]');
    if (open) { open.open = false; return; }
    if (state.readState().zoom) state.update({ zoom: undefined });
  } else if (e.key === 'i' && mounted && mounted.toggleInvert) {
    mounted.toggleInvert();
  } else if (e.key === 'l') {
    copyLink();
  }
});

document.getElementById('copy-link').addEventListener('click', copyLink);
document.getElementById('home').addEventListener('click', e => {
  if (e.ctrlKey || e.metaKey || e.shiftKey) return;
  e.preventDefault();
  state.update({ page: 'recordings' }, { reset: true });
});
window.addEventListener('unhandledrejection', e => toast(String(e.reason && e.reason.message || e.reason), true));
// a page whose recording has grown (a run, see pages/common.js watchRun) is shown again from the same URL
window.addEventListener('workbench:reload', () => {
  if (shown) leave(shown);
  shown = null;
  show(state.readState());
});
state.onStateChange(st => show(st));
show(state.readState());
