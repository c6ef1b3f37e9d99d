// Pieces shared by the recording, diff and heap pages.

import { el, formatDate, formatDuration, labelChips } from '../core/dom.js';
import * as state from '../core/state.js';
import { api } from '../core/api.js';

export const KIND_LABELS = { cpu: 'CPU', wall: 'Wall clock', alloc: 'Allocations', live: 'Live objects', lock: 'Locks', nativemem: 'Native memory', leak: 'Native leaks' };

/**
 * The kinds with samples, in the API's order (the server's); the first is the view a recording opens with, the one
 * the server prepares after an upload.
 */
export function kindsOf(recording) {
  const kinds = (recording && recording.kinds) || {};
  return Object.keys(kinds).filter(k => (kinds[k].samples || kinds[k].weight) > 0);
}

/**
 * A short JVM description: "Java 25.0.3 \u00b7 OpenJDK 64-Bit Server VM". The Java version is javaFeature (Java's
 * own, never HotSpot's: a JDK 8 VM calls itself 25.x), with java.version beside it when that says more.
 */
export function jvmText(jvm) {
  if (!jvm) return null;
  const feature = jvm.javaFeature ? String(jvm.javaFeature) : '';
  const version = jvm.javaVersion ? String(jvm.javaVersion) : '';
  let java = feature || version;
  if (feature && version && version !== feature) {
    java = version.startsWith(feature + '.') || version.startsWith(feature + '+') ? version : `${feature} (${version})`;
  }
  const name = (jvm.jvmName || '').trim();
  const text = [java ? 'Java ' + java : '', name].filter(Boolean).join(' \u00b7 ');
  return text || null;
}

/**
 * The unit a kind's weights are really in. Old JDKs' jdk.OldObjectSample has no object size, so each live sample
 * weighs 1 "byte": such a kind is shown as a sample count, not as a few bytes.
 */
export function unitOf(recording, kind) {
  const k = recording && recording.kinds && recording.kinds[kind];
  if (!k) return 'samples';
  if (k.unit === 'bytes' && k.samples > 0 && k.weight === k.samples) return 'samples';
  return k.unit || 'samples';
}

/** True when unitOf had to fall back to sample counts for a kind the API weighs in bytes. */
export function sizesMissing(recording, kind) {
  const k = recording && recording.kinds && recording.kinds[kind];
  return !!k && k.unit === 'bytes' && unitOf(recording, kind) === 'samples';
}

export function recordingHeader(recording, extra = []) {
  const facts = [
    recording.startMillis ? formatDate(recording.startMillis) : null,
    recording.durationMillis ? formatDuration(recording.durationMillis) : null,
    jvmText(recording.jvm),
  ].filter(Boolean);
  const run = runText(recording);
  return el('header', { class: 'page-head' },
    el('div', {},
      el('h1', { class: 'title', text: recording.name || recording.id, title: 'Recording ' + recording.id }),
      el('div', { class: 'facts' }, facts.map(f => el('span', { text: f })),
        run ? el('span', { class: 'run-state' + (recording.ended ? '' : ' growing'), id: 'run-state', text: run,
          title: 'Run ' + recording.run }) : null, labelChips(recording.labels))),
    el('div', { class: 'head-actions' }, extra));
}

/** A run's parts and whether it still grows ("12 parts, growing"); null for a plain upload. */
export function runText(recording) {
  if (!recording.run) return null;
  const n = recording.parts || 0;
  return `${n} part${n === 1 ? '' : 's'}, ` + (recording.ended ? 'ended' : 'growing');
}

/** How often the page of a growing run asks whether it has grown. */
export const RUN_POLL_MILLIS = 5000;

/**
 * While a run is not ended, asks for its metadata every few seconds (not while the tab is hidden) and, when a part
 * was added (its updatedMillis changed), shows the page again from the same URL: its range and view stay, the data
 * is the run's newest. Stops when the page is left.
 */
export function watchRun(recording, lifetime) {
  if (!recording.run || recording.ended) return;
  const timer = setInterval(async () => {
    if (document.hidden) return;
    let now;
    try { now = await api.get(recording.id); } catch { return; } // a server away now and then: ask again later
    if (lifetime.aborted || now.updatedMillis === recording.updatedMillis) return;
    clearInterval(timer);
    window.dispatchEvent(new CustomEvent('workbench:reload'));
  }, RUN_POLL_MILLIS);
  onLeave(lifetime, () => clearInterval(timer));
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

/**
 * What is wrong with a view's time range, or null: {text, swap} where swap says the two ends are the wrong way round.
 * With no recording (before its metadata came) only the form is checked.
 */
export function rangeProblem(s, recording) {
  const value = v => (v === undefined ? undefined : /^\d+$/.test(v) ? Number(v) : NaN);
  const from = value(s.from), to = value(s.to);
  if (Number.isNaN(from) || Number.isNaN(to)) {
    return { text: `The range in this link (from=${s.from ?? ''}, to=${s.to ?? ''}) is not two whole numbers of milliseconds since the recording\u2019s start.` };
  }
  if (from !== undefined && to !== undefined && from > to) {
    return { swap: true, text: `It starts at ${formatDuration(from)} and ends earlier, at ${formatDuration(to)}: from must not be later than to.` };
  }
  const duration = recording && recording.durationMillis;
  if (duration && from !== undefined && from > duration) {
    return { text: `It starts at ${formatDuration(from)}, after the recording ends (${formatDuration(duration)}).` };
  }
  return null;
}
