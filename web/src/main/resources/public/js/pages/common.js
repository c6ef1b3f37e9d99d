// Pieces shared by the recording, diff and heap pages.

import { el, formatDate, formatDuration, labelChips } from '../core/dom.js';
import * as state from '../core/state.js';

export const KIND_LABELS = { cpu: 'CPU', wall: 'Wall clock', alloc: 'Allocations', live: 'Live objects', lock: 'Locks', nativemem: 'Native memory', leak: 'Native leaks' };

/**
 * The kinds with samples, in the API's order (the server's); the first is the view a recording opens with, the one
 * the server prepares after an upload.
 */
export function kindsOf(recording) {
  const kinds = (recording && recording.kinds) || {};
  return Object.keys(kinds).filter(k => (kinds[k].samples || kinds[k].weight) > 0);
}

/** A short JVM description: "Java 25.0.3 · OpenJDK 64-Bit Server VM"; the full version string is long. */
export function jvmText(jvm) {
  if (!jvm) return null;
  const java = jvm.javaVersion || (jvm.jvmVersion || '').match(/\(([^)]+)\)/)?.[1] || '';
  const name = (jvm.jvmName || '').trim();
  const text = [java ? 'Java ' + java : '', name].filter(Boolean).join(' \u00b7 ');
  return text || null;
}

export function recordingHeader(recording, extra = []) {
  const facts = [
    recording.startMillis ? formatDate(recording.startMillis) : null,
    recording.durationMillis ? formatDuration(recording.durationMillis) : null,
    jvmText(recording.jvm),
  ].filter(Boolean);
  return el('header', { class: 'page-head' },
    el('div', {},
      el('h1', { class: 'title', text: recording.name || recording.id, title: 'Recording ' + recording.id }),
      el('div', { class: 'facts' }, facts.map(f => el('span', { text: f })), labelChips(recording.labels))),
    el('div', { class: 'head-actions' }, extra));
}

/** Kind tabs; only kinds present. Arrow keys move between tabs as in any tab list. */
export function kindTabs(kinds, current, onPick) {
  const list = el('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Profile kind' });
  for (const kind of kinds) {
    const tab = el('button', { type: 'button', role: 'tab', class: 'tab', id: 'tab-' + kind, dataset: { kind },
      'aria-selected': kind === current ? 'true' : 'false', tabindex: kind === current ? '0' : '-1',
      text: KIND_LABELS[kind] || kind, onclick: () => onPick(kind) });
    tab.addEventListener('keydown', e => {
      const i = kinds.indexOf(kind);
      if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
        const next = kinds[(i + (e.key === 'ArrowRight' ? 1 : kinds.length - 1)) % kinds.length];
        onPick(next);
        requestAnimationFrame(() => document.getElementById('tab-' + next)?.focus());
      }
    });
    list.appendChild(tab);
  }
  return list;
}

/**
 * Runs release when the page's lifetime ends (app.js aborts it when another page replaces this one), or at once if
 * it already has: a page left while it was loading still releases what it created.
 */
export function onLeave(lifetime, release) {
  if (lifetime.aborted) release();
  else lifetime.addEventListener('abort', release, { once: true });
}

export function message(title, ...lines) {
  return el('div', { class: 'message' }, el('h2', { text: title }), lines.map(l => el('p', {}, l)));
}

export function link(text, change, attrs = {}) {
  const href = state.toUrl(change);
  return el('a', { href, text, ...attrs, onclick: e => {
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    state.update(change, { reset: true });
  } });
}

export function loading(text = 'Loading\u2026') {
  return el('div', { class: 'loading', role: 'status', text });
}
