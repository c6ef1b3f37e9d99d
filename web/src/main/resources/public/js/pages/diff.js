// Diff page: baseline against target for one kind; the sides are two recordings (or one recording at two time
// ranges), or two time ranges across the runs a recordings query finds (q, baseFrom… in epoch ms, /api/merged/diff). The merged flame graph is coloured only where a frame's change is
// significant (red grew, blue shrank; grey otherwise); the table lists one row per method ranked by the size of its
// significant change, with the test that decided it. Relative mode compares shares of each side's weight, absolute
// mode weight per second. Each side can have its own range, threads and states; the sides are warned about when
// they do not compare well.

import { el, clear, afterPaint, download, formatPercent, formatWeight, labelChips, toast, nameCell } from '../core/dom.js';
import { api, urls } from '../core/api.js';
import * as state from '../core/state.js';
import { takeMade } from '../core/urls.js';
import { buildDiffTree } from '../flame/flametree.js';
import { FlamePanel } from '../flame/flamepanel.js';
import { KIND_LABELS, kindsOf, kindTabs, message, link, loading, onLeave, rangeProblem } from './common.js';
import { stateLabel, statesOf } from '../components/samplefilters.js';

const SIDES = [['base', 'Baseline'], ['target', 'Target']];

/** A change of share in percentage points: "+1.25 pp". */
export function formatPp(delta) {
  const v = 100 * (Number(delta) || 0);
  return (v > 0 ? '+' : v < 0 ? '\u2212' : '\u00b1') + Math.abs(v).toFixed(2) + ' pp';
}

/** A rate, short enough for a table cell: "12.3/s" (samples), "1.2 MiB/s", "35 ms/s". */
function formatRate(value, unit) {
  const v = Math.abs(Number(value) || 0);
  if (unit === 'samples') return (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)) + '/s';
  return formatWeight(v, unit) + '/s';
}

/** A change of a rate: "+12.3/s". */
function formatRateDelta(delta, unit) {
  const v = Number(delta) || 0;
  return (v > 0 ? '+' : v < 0 ? '\u2212' : '\u00b1') + formatRate(v, unit);
}

export async function mount(root, st, lifetime) {
  root.appendChild(loading());
  // no recording named: a diff of two ranges across the runs of the query q
  const runs = !st.base && !st.id;
  // two ranges of one recording: its metadata asked for once (as core/boot.js and the page's head ask for it)
  const metadata = runs ? null : api.get(st.id);
  const [base, target, listed] = runs ? [null, null, await api.list(st.q, 1)]
    : [...await Promise.all([st.base === st.id ? metadata : api.get(st.base), metadata]), null];
  if (lifetime.aborted) return { update() {} };
  clear(root);
  const baseKinds = runs ? [] : kindsOf(base);
  const kinds = runs ? Object.keys(KIND_LABELS).filter(k => ((listed.facets || {}).kinds || {})[k])
    : kindsOf(target).filter(k => baseKinds.includes(k));
  const recordings = { base, target };
  const ranges = { base: el('span', { class: 'diff-range', id: 'base-range' }), target: el('span', { class: 'diff-range', id: 'target-range' }) };
  // a side of runs links to the service page at its range (redrawn as the ranges change)
  const runsLinks = { base: el('span', { class: 'runs-link' }), target: el('span', { class: 'runs-link' }) };
  const side = (label, r, cls) => el('div', { class: 'diff-side ' + cls },
    el('span', { class: 'label', text: label }),
    runs ? runsLinks[cls] : link(r.name || r.id, { page: 'recording', id: r.id }, { class: 'title-link' }),
    runs ? null : labelChips(r.labels), ranges[cls]);
  root.appendChild(el('header', { class: 'page-head' },
    el('div', {}, el('h1', { class: 'title', text: runs ? 'Diff of runs' : st.base === st.id ? 'Diff of two ranges' : 'Diff' }),
      el('div', { class: 'diff-sides' }, side('Baseline', base, 'base'), el('span', { class: 'arrow', text: '\u2192' }), side('Target', target, 'target'))),
    el('div', { class: 'head-actions' }, el('button', { type: 'button', class: 'button', id: 'swap', text: 'Swap',
      onclick: () => state.update(swapped(state.readState())) }))));
  if (!kinds.length) {
    root.appendChild(message('Nothing to compare', runs ? 'No recording with samples matches this query.'
      : 'These recordings have no profile kind in common.'));
    return { update() {} };
  }
  const tabsHolder = el('div', { class: 'tabs-holder' });
  const modes = modeSwitch();
  // a side of runs has no threads of its own to pick
  const filters = runs ? { summary: null, root: null, set() {}, destroy() {} } : sideFilters(recordings);
  root.appendChild(el('div', { class: 'controls' }, tabsHolder, modes.root, el('span', { class: 'spacer' }), filters.summary));
  if (filters.root) root.appendChild(filters.root);
  const warnings = el('div', { class: 'diff-warnings', id: 'diff-warnings', role: 'alert', hidden: true });
  root.appendChild(warnings);
  const grid = el('div', { class: 'flame-grid' });
  const left = el('div', { class: 'flame-col' }), right = el('aside', { class: 'side-col' });
  grid.append(left, right);
  root.appendChild(grid);
  const problem = el('div', { class: 'problem', id: 'view-problem', role: 'alert', hidden: true });
  left.appendChild(problem);
  let diff = null, delta = null, significance = null, maxAbs = 0, current = st;
  const insignificant = () => getComputedStyle(document.documentElement).getPropertyValue('--flame-insignificant').trim() || 'hsl(220,8%,86%)';
  let grey = insignificant();
  const panel = new FlamePanel(left, {
    unit: 'share', legend: 'diff', fileName: runs ? 'diff-runs' : `diff-${base.name || base.id}-${target.name || target.id}`,
    colorOf: i => significance[i] ? changeColor(significance[i], delta[i], maxAbs) : grey,
    describe: i => describe(i),
  });
  // the collapsed export of a diff is both sides' stacks with both weights, from the server; the merged tree here
  // holds shares only
  panel.exportCollapsed = () => (runs ? toast('A diff of runs has no collapsed export; export each range\u2019s flame graph instead', true)
    : exportCollapsed(current));
  // the page's own legend says what the colours mean here (significance), below the graph
  panel.legend.hidden = true;
  const legend = el('div', { class: 'legend diff-legend', id: 'diff-legend' });
  left.appendChild(legend);
  const changes = el('div', { class: 'changes' });
  right.appendChild(changes);

  function describe(i) {
    const n = diff.nodes, absolute = diff.mode === 'absolute';
    const b = n.base[i], t = n.target[i];
    const rows = absolute
      ? [['Baseline', formatRate(b / (diff.baseSeconds || 1), diff.unit)], ['Target', formatRate(t / (diff.targetSeconds || 1), diff.unit)],
        ['Change', formatRateDelta(delta[i], diff.unit)]]
      : [['Baseline', formatPercent(b / (diff.baseTotal || 1))], ['Target', formatPercent(t / (diff.targetTotal || 1))],
        ['Change', formatPp(delta[i]) + ' of all']];
    rows.push(['Significant', significance[i] ? (significance[i] > 0 ? 'yes, grew' : 'yes, shrank') : 'no (grey)']);
    return rows;
  }

  async function exportCollapsed(s) {
    try {
      const response = await fetch(urls.diffCollapsed(s.base, s.id, { ...s, kind: kindOf(s) }));
      if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error || 'HTTP ' + response.status);
      download(panel.options.fileName + '.collapsed.txt', await response.blob());
    } catch (e) {
      toast('Export failed: ' + e.message, true);
    }
  }

  const kindOf = s => (kinds.includes(s.kind) ? s.kind : kinds[0]);
  let dataKey = null, seq = 0;
  onLeave(lifetime, () => {
    seq++; // a diff still loading is dropped
    panel.destroy();
    filters.destroy();
  });

  function showProblem(title, text) {
    clear(problem).append(el('h2', { text: title }), el('p', { text }));
    problem.hidden = false;
    panel.root.hidden = true;
    legend.hidden = true;
    clear(changes);
  }

  async function update(s) {
    current = s;
    const kind = kindOf(s);
    clear(tabsHolder).appendChild(kindTabs(kinds, kind, k => state.update({ kind: k, zoom: undefined, states: undefined, source: undefined,
      baseStates: undefined, targetStates: undefined, baseSource: undefined, targetSource: undefined })));
    modes.set(s.mode);
    filters.set(s, kind);
    for (const [key] of SIDES) {
      ranges[key].textContent = rangeText(s[key + 'From'], s[key + 'To'], runs);
      if (runs) {
        const q = key === 'target' && s.targetQ ? s.targetQ : s.q;
        clear(runsLinks[key]).appendChild(link(q || 'all recordings', { page: 'service', q, kind, from: s[key + 'From'],
          to: s[key + 'To'] }, { class: 'title-link', title: 'The runs over time, at this range' }));
      }
    }
    for (const [key, label] of SIDES) {
      const bad = runs ? runsRangeProblem(s[key + 'From'], s[key + 'To'])
        : rangeProblem({ from: s[key + 'From'], to: s[key + 'To'] }, recordings[key]);
      if (bad) {
        dataKey = null;
        seq++;
        showProblem(`The ${label.toLowerCase()}\u2019s time range shows nothing`, bad.text);
        return;
      }
    }
    const key = JSON.stringify(runs ? urls.mergedDiff(s.q, { ...s, kind }) : urls.diff(s.base, s.id, { ...s, kind }));
    if (key === dataKey) { panel.apply(s); return; }
    dataKey = key;
    const mine = ++seq;
    let built;
    try {
      // a linked diff's tree may be built already from its early answer (core/boot.js), for this URL only
      const made = takeMade(runs ? urls.mergedDiff(s.q, { ...s, kind }) : urls.diff(s.base, s.id, { ...s, kind }));
      const got = made ? await made : null;
      if (got && got.error) throw got.error;
      diff = got ? got.diff : await (runs ? api.mergedDiff(s.q, { ...s, kind }) : api.diff(s.base, s.id, { ...s, kind }));
      built = got || buildDiffTree(diff);
    } catch (e) {
      if (mine === seq) {
        dataKey = null;
        if (e.status === 400) showProblem('These sides cannot be compared', e.message);
        else toast(e.message, true);
      }
      return;
    }
    if (mine !== seq) return;
    problem.hidden = true;
    panel.root.hidden = false;
    legend.hidden = false;
    grey = insignificant();
    const absolute = diff.mode === 'absolute';
    ({ delta, significance, maxAbs } = built);
    panel.options.unit = absolute ? diff.unit : 'share';
    panel.show(built.tree, current);
    if (runs) {
      for (const [key] of SIDES) {
        const used = diff[key + 'Runs'] || [];
        ranges[key].textContent = rangeText(s[key + 'From'], s[key + 'To'], true) + ` \u00b7 ${used.length} run${used.length === 1 ? '' : 's'}`;
      }
    }
    drawWarnings(warnings, diff.warnings || []);
    drawLegend(legend, diff, significance);
    // the graph is what a reader looks at first: let the browser paint it before the table (hundreds of rows) is
    // built; the table shown keeps its rows until then, so nothing flashes empty
    await afterPaint();
    if (mine !== seq) return;
    drawChanges(changes, diff, name => focusMethod(name));
    performance.mark('workbench:changes');
  }

  function focusMethod(name) {
    const node = panel.tree.heaviest(name);
    state.update({ zoom: node > 0 ? panel.tree.pathOf(node).join(';') : undefined });
  }

  await update(st);
  return { update };
}

/** A side's range as the header shows it: seconds into the recording, or the absolute span of a side of runs. */
function rangeText(from, to, runs) {
  if (runs) {
    const iso = t => new Date(Number(t)).toISOString().replace('T', ' ').slice(0, 23);
    return from === undefined || to === undefined ? '' : `${iso(from)} \u2013 ${iso(to).slice(11)} UTC (${((to - from) / 1000).toFixed(2)} s)`;
  }
  if (from === undefined && to === undefined) return 'whole recording';
  const secs = v => (Number(v) / 1000).toFixed(2) + ' s';
  return `${from === undefined ? '0.00 s' : secs(from)} \u2013 ${to === undefined ? 'end' : secs(to)}`;
}

/** What is wrong with a side's range of a diff of runs (two whole epoch ms, from before to), or null. */
function runsRangeProblem(from, to) {
  if (from === undefined || to === undefined) return { text: 'A diff of runs needs both ends of each side\u2019s range (baseFrom, baseTo, targetFrom, targetTo).' };
  if (!/^\d+$/.test(from) || !/^\d+$/.test(to)) return { text: `The range ${from} \u2013 ${to} is not two whole numbers of epoch milliseconds.` };
  if (Number(from) >= Number(to)) return { text: `The range starts at ${from} and ends at ${to}: from must be before to.` };
  return null;
}

/** The URL state with baseline and target, and their own filters, swapped. */
function swapped(s) {
  const out = { base: s.id, id: s.base, zoom: undefined };
  // a diff of runs whose sides come from two searches swaps the searches too
  if (s.targetQ) { out.q = s.targetQ; out.targetQ = s.q; }
  for (const k of ['From', 'To', 'Threads', 'States', 'Source']) {
    out['base' + k] = s['target' + k];
    out['target' + k] = s['base' + k];
  }
  return out;
}

/** Red where a frame grew significantly, blue where it shrank; stronger for a larger change. */
function changeColor(sign, delta, maxAbs) {
  const intensity = maxAbs ? Math.min(1, Math.sqrt(Math.abs(delta) / maxAbs)) : 1;
  const light = Math.round(80 - 30 * intensity);
  return sign > 0 ? `hsl(2,78%,${light}%)` : `hsl(214,78%,${light}%)`;
}

function drawWarnings(box, warnings) {
  clear(box);
  box.hidden = !warnings.length;
  if (!warnings.length) return;
  box.append(el('strong', { text: 'These sides may not compare well:' }), el('ul', {}, warnings.map(w => el('li', { text: w }))));
}

function drawLegend(box, diff, significance) {
  clear(box);
  const swatch = color => { const s = el('span', { class: 'swatch' }); s.style.background = color; return s; };
  let grew = 0, shrank = 0;
  for (const v of significance) { if (v > 0) grew++; else if (v < 0) shrank++; }
  box.append(swatch('hsl(2,78%,55%)'), `grew significantly (${grew})`, swatch('hsl(214,78%,55%)'), `shrank significantly (${shrank})`,
    el('span', { class: 'swatch insignificant' }), 'no significant change',
    el('span', { class: 'hint', text: `width = mean ${diff.mode === 'absolute' ? 'weight per second' : 'share'} of both sides; colour intensity = size of the change`
      + (diff.test ? `; each frame tested (${diff.test.name}, ${diff.test.correction}-corrected over ${diff.test.nodeTests} frames, \u03b1 ${diff.test.alpha})` : '') }));
}

function drawChanges(container, diff, onFocus) {
  clear(container);
  const absolute = diff.mode === 'absolute';
  const rows = diff.changes || [];
  const significant = rows.filter(c => c.significant || c.selfSignificant);
  const test = diff.test;
  const body = el('tbody');
  const cell = (value, text, isSignificant, title) => el('td', { class: 'num delta' + (isSignificant ? (value > 0 ? ' grows' : ' shrinks') : ' insignificant'),
    text, title });
  for (const c of rows.slice(0, 200)) {
    const totalDelta = absolute ? c.perSecondDelta : c.delta, selfDelta = absolute ? c.selfPerSecondDelta : c.selfDelta;
    const fmt = v => (absolute ? formatRateDelta(v, diff.unit) : formatPp(v));
    const from = absolute ? `${formatRate(c.basePerSecond, diff.unit)} \u2192 ${formatRate(c.targetPerSecond, diff.unit)}`
      : `${formatPercent(c.baseShare)} \u2192 ${formatPercent(c.targetShare)}`;
    const name = nameCell(c.method);
    name.appendChild(el('small', { class: 'change-values', text: from }));
    if (c.sameSamples && c.sameSamples.length) {
      name.appendChild(el('small', { class: 'same-samples', title: c.sameSamples.join('\n'),
        text: `same stacks as ${c.sameSamples.length} other method${c.sameSamples.length > 1 ? 's' : ''} (their change is this one)` }));
    }
    const tr = el('tr', { tabindex: '0', dataset: { method: c.method } }, name,
      cell(totalDelta, fmt(totalDelta), c.significant, pTitle('total', c.pValue, c.significant)),
      cell(selfDelta, fmt(selfDelta), c.selfSignificant, pTitle('self', c.selfPValue, c.selfSignificant)));
    if (c.significant || c.selfSignificant) tr.classList.add('significant');
    tr.addEventListener('click', () => onFocus(c.method));
    tr.addEventListener('keydown', e => { if (e.key === 'Enter') onFocus(c.method); });
    body.appendChild(tr);
  }
  const caption = significant.length
    ? `${significant.length} method${significant.length > 1 ? 's' : ''} changed significantly`
    : 'No significant change';
  const how = test ? `Ranked by the size of the significant change. Test: ${test.name}, ${test.correction}-corrected over ${test.tests} tests, \u03b1 = ${test.alpha}.`
    : 'Ranked by the size of the significant change; two-proportion z-test, Bonferroni-corrected, \u03b1 = 0.05.';
  const unit = absolute ? `${diff.unit} per second of the selected time` : 'pp = percentage points of all';
  container.appendChild(el('div', { class: 'table-scroll' }, el('table', { class: 'data', id: 'changes' },
    el('caption', {}, el('span', { text: caption }), el('small', { class: 'test-name', id: 'diff-test', text: how })),
    el('thead', {}, el('tr', {}, el('th', { text: 'Method' }), el('th', { class: 'num', text: 'Total \u0394', title: unit }),
      el('th', { class: 'num', text: 'Self \u0394', title: unit }))),
    body)));
  if (!rows.length) container.appendChild(el('p', { class: 'hint', text: 'No method changed between these sides.' }));
}

function pTitle(what, p, significant) {
  if (p === undefined || p === null) return undefined;
  return `${what}: p = ${Number(p).toPrecision(2)} (corrected) \u2014 ${significant ? 'significant' : 'not significant'}`;
}

/** Relative / absolute mode, in the URL as mode=absolute. */
function modeSwitch() {
  const button = (mode, text, title) => el('button', { type: 'button', role: 'radio', class: 'subtab', id: 'mode-' + mode, text, title,
    onclick: () => state.update({ mode: mode === 'absolute' ? 'absolute' : undefined, zoom: undefined }) });
  const buttons = {
    relative: button('relative', 'Share', 'Relative: each method\u2019s share of its side\u2019s weight'),
    absolute: button('absolute', 'Per second', 'Absolute: each method\u2019s weight per second of the selected time'),
  };
  const root = el('div', { class: 'tabs', role: 'radiogroup', 'aria-label': 'Compare' }, buttons.relative, buttons.absolute);
  return {
    root,
    set(mode) {
      const current = mode === 'absolute' ? 'absolute' : 'relative';
      for (const [k, b] of Object.entries(buttons)) b.setAttribute('aria-checked', String(k === current));
      for (const [k, b] of Object.entries(buttons)) b.setAttribute('aria-selected', String(k === current));
    },
  };
}

/**
 * Filters per side: each side's own time range (seconds), threads and thread states, written to baseFrom,
 * targetThreads, … A disclosure, open while a side has a filter.
 */
function sideFilters(recordings) {
  const summary = el('button', { type: 'button', class: 'button', id: 'side-filters-button', 'aria-expanded': 'false', 'aria-controls': 'side-filters',
    text: 'Filters per side' });
  const root = el('section', { class: 'card side-filters', id: 'side-filters', hidden: true, 'aria-label': 'Filters per side' });
  summary.addEventListener('click', () => {
    root.hidden = !root.hidden;
    summary.setAttribute('aria-expanded', String(!root.hidden));
  });
  const parts = {};
  for (const [key, label] of SIDES) {
    const r = recordings[key];
    const from = el('input', { type: 'number', min: '0', step: '0.001', id: key + '-from', 'aria-label': label + ' from (s)', placeholder: 'start' });
    const to = el('input', { type: 'number', min: '0', step: '0.001', id: key + '-to', 'aria-label': label + ' to (s)', placeholder: 'end' });
    const threads = el('select', { id: key + '-threads', multiple: true, size: '4', 'aria-label': label + ' threads' },
      [...(r.threads || [])].sort((a, b) => (b.samples || 0) - (a.samples || 0))
        .map(t => el('option', { value: String(t.id), text: t.name || 'thread ' + t.id })));
    const states = el('div', { class: 'state-items', id: key + '-states' });
    const apply = el('button', { type: 'button', class: 'button primary small', id: key + '-apply', text: 'Apply', onclick: () => {
      const secs = v => (v.value === '' ? undefined : String(Math.round(Number(v.value) * 1000)));
      const picked = [...threads.selectedOptions].map(o => o.value);
      const ticked = [...states.querySelectorAll('input')];
      const chosen = ticked.filter(b => b.checked).map(b => b.value);
      state.update({ [key + 'From']: secs(from), [key + 'To']: secs(to), [key + 'Threads']: picked.length ? picked.join(',') : undefined,
        [key + 'States']: chosen.length && chosen.length < ticked.length ? chosen.join(',') : undefined, zoom: undefined });
    } });
    const clearAll = el('button', { type: 'button', class: 'button small', text: 'Clear', onclick: () => state.update({
      [key + 'From']: undefined, [key + 'To']: undefined, [key + 'Threads']: undefined, [key + 'States']: undefined, zoom: undefined }) });
    parts[key] = { from, to, threads, states };
    root.appendChild(el('fieldset', { class: 'side-filter side-' + key }, el('legend', { text: `${label}: ${r.name || r.id}` }),
      el('div', { class: 'range-inputs' }, el('label', {}, 'From ', from, ' s'), el('label', {}, 'to ', to, ' s')),
      el('label', { class: 'threads-pick' }, el('span', { text: 'Threads (none picked: all)' }), threads),
      el('div', { class: 'side-states' }, el('span', { class: 'label', text: 'Thread states' }), states),
      el('div', { class: 'row start' }, clearAll, apply)));
  }
  return {
    summary, root,
    set(s, kind) {
      let any = false;
      for (const [key] of SIDES) {
        const p = parts[key];
        const ms = v => (v === undefined || v === '' || Number.isNaN(Number(v)) ? '' : String(Number(v) / 1000));
        p.from.value = ms(s[key + 'From']);
        p.to.value = ms(s[key + 'To']);
        const picked = state.parseIds(s[key + 'Threads']);
        for (const o of p.threads.options) o.selected = picked.includes(o.value);
        const counts = statesOf(recordings[key], kind, s[key + 'Source'] || s.source);
        const chosen = (s[key + 'States'] || s.states || '').split(',').filter(Boolean);
        clear(p.states);
        const names = Object.keys(counts);
        for (const name of names) {
          p.states.appendChild(el('label', { class: 'state', dataset: { state: name } },
            el('input', { type: 'checkbox', value: name, checked: !chosen.length || chosen.includes(name) }), el('span', { text: stateLabel(name) })));
        }
        // one state (or none) is nothing to filter by
        p.states.parentElement.hidden = names.length < 2;
        any = any || ['From', 'To', 'Threads', 'States'].some(k => s[key + k]);
      }
      summary.textContent = any ? 'Filters per side (on)' : 'Filters per side';
      if (any && root.hidden && !this.opened) { root.hidden = false; summary.setAttribute('aria-expanded', 'true'); }
      this.opened = true;
    },
    destroy() {},
  };
}
