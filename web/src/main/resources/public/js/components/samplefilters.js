// Which samples of a kind are shown: the source (where two samplers recorded the same kind; never their sum) and the
// thread states (wall-clock samples keep the state the thread was in). Both live in the URL (source=, states=).

import { el, clear, formatCount, formatPercent } from '../core/dom.js';

// known states get a colour of their meaning (running green, waiting blue, blocked red); others grey
const STATE_COLORS = {
  STATE_RUNNABLE: 'hsl(130,45%,48%)', STATE_DEFAULT: 'hsl(130,45%,48%)', STATE_IN_NATIVE: 'hsl(30,80%,55%)',
  STATE_SLEEPING: 'hsl(210,55%,58%)', STATE_PARKED: 'hsl(260,45%,62%)', STATE_WAITING: 'hsl(235,45%,62%)',
  STATE_TIMED_WAITING: 'hsl(225,45%,60%)', STATE_BLOCKED: 'hsl(2,65%,55%)', STATE_NEW: 'hsl(0,0%,60%)',
  STATE_TERMINATED: 'hsl(0,0%,45%)',
};

/** "STATE_TIMED_WAITING" -> "Timed waiting". */
export function stateLabel(name) {
  const words = String(name).replace(/^STATE_/, '').toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function stateColor(name) {
  return STATE_COLORS[name] || 'hsl(220,8%,62%)';
}

/** The sources of a kind (name -> {samples, weight, states}) and its default, from the recording's metadata. */
export function sourcesOf(recording, kind) {
  const k = (recording.kinds || {})[kind] || {};
  return { sources: k.sources || {}, defaultSource: k.source };
}

/** The states of the samples shown: those of the picked source, else the kind's default's. */
export function statesOf(recording, kind, source) {
  const k = (recording.kinds || {})[kind] || {};
  const picked = source && k.sources && k.sources[source];
  return (picked ? picked.states : k.states) || {};
}

/** A select of the kind's sources, shown only when it has more than one. onPick(name or undefined for the default). */
export function sourcePicker(onPick) {
  const select = el('select', { id: 'source', 'aria-label': 'Sampler (source) of these samples' });
  const root = el('label', { class: 'source-picker', hidden: true, title: 'Two samplers recorded this kind: one is shown, never their sum' },
    el('span', { class: 'label', text: 'Source' }), select);
  let defaultSource;
  select.addEventListener('change', () => onPick(select.value === defaultSource ? undefined : select.value));
  return {
    root,
    set(recording, kind, source) {
      const { sources, defaultSource: d } = sourcesOf(recording, kind);
      defaultSource = d;
      const names = Object.keys(sources);
      root.hidden = names.length < 2;
      clear(select);
      for (const name of names) {
        select.appendChild(el('option', { value: name,
          text: `${name}${name === d ? ' (default)' : ''} \u00b7 ${formatCount(sources[name].samples)} samples` }));
      }
      select.value = source && sources[source] ? source : d;
    },
  };
}

/**
 * Thread-state legend and filter: one checkbox per state with its colour and share of the samples. Shown when the
 * samples have more than one state. onChange(list of states, or undefined for all).
 */
export function stateFilter(onChange) {
  const items = el('div', { class: 'state-items' });
  const root = el('fieldset', { class: 'states', id: 'states', hidden: true },
    el('legend', { class: 'label', text: 'Thread states' }), items);
  let all = [];
  const changed = e => {
    const picked = [...items.querySelectorAll('input')].filter(b => b.checked).map(b => b.value);
    // no state at all would be an empty graph: the last state stays ticked
    if (!picked.length) { e.target.checked = true; return; }
    onChange(picked.length === all.length ? undefined : picked);
  };
  return {
    root,
    /** counts: state -> samples; selected: the states in the URL (empty = all) */
    set(counts, selected) {
      all = Object.keys(counts).sort((a, b) => counts[b] - counts[a]);
      root.hidden = all.length < 2;
      clear(items);
      const total = all.reduce((sum, s) => sum + counts[s], 0) || 1;
      for (const name of all) {
        const box = el('input', { type: 'checkbox', value: name, checked: !selected.length || selected.includes(name) });
        box.addEventListener('change', changed);
        const swatch = el('span', { class: 'swatch' });
        swatch.style.background = stateColor(name);
        items.appendChild(el('label', { class: 'state', title: `${name}: ${formatCount(counts[name])} samples`, dataset: { state: name } },
          box, swatch, el('span', { text: stateLabel(name) }), el('small', { text: formatPercent(counts[name] / total, 1) })));
      }
    },
  };
}

/**
 * Bytes or sample counts as the weight of an allocation-like view (weight=samples): a few huge arrays or many small
 * objects. Shown for kinds weighed in bytes whose samples carry sizes. onPick('samples' or undefined).
 */
export function weightPicker(onPick) {
  const select = el('select', { id: 'weight', 'aria-label': 'Weigh samples by' },
    el('option', { value: '', text: 'bytes' }), el('option', { value: 'samples', text: 'sample count' }));
  const root = el('label', { class: 'source-picker weight-picker', hidden: true }, el('span', { class: 'label', text: 'Weigh by' }), select);
  select.addEventListener('change', () => onPick(select.value || undefined));
  return {
    root,
    set(shown, weight) {
      root.hidden = !shown;
      select.value = weight === 'samples' ? 'samples' : '';
    },
  };
}
