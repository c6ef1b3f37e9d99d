// Threads over time: a lane per thread (busiest first) marking when it had samples of the kind and thread states
// shown. Dragging across a lane filters the page by that thread and that time; clicking its name, by the thread.

import { el, clear, formatCount } from '../core/dom.js';

const LANE_HEIGHT = 16, FIRST_LANES = 30;

export class ThreadLanes {
  /** onPick(threadId, fromMs, toMs): toMs undefined when only the thread was picked. */
  constructor(container, { onPick }) {
    this.onPick = onPick;
    this.data = null;
    this.all = false;
    this.list = el('div', { class: 'lanes', id: 'thread-lanes', role: 'list', 'aria-label': 'Threads over time' });
    this.more = el('button', { type: 'button', class: 'button small', id: 'lanes-more', hidden: true, onclick: () => { this.all = true; this.draw(); } });
    this.note = el('p', { class: 'hint lanes-note' });
    this.root = el('div', { class: 'lanes-box' }, this.list, el('div', { class: 'row start' }, this.more, this.note));
    container.appendChild(this.root);
    this.frame = 0;
    this.width = 0;
    this.resizer = new ResizeObserver(() => {
      cancelAnimationFrame(this.frame);
      this.frame = requestAnimationFrame(() => { if (this.data && this.list.clientWidth !== this.width) this.draw(); });
    });
    this.resizer.observe(this.list);
  }

  destroy() {
    this.resizer.disconnect();
    cancelAnimationFrame(this.frame);
    this.data = null;
  }

  /** data: the API's lanes; selected: thread ids picked; range: [from, to] in ms or null. */
  set(data, selected, range) {
    this.data = data;
    this.selected = selected;
    this.range = range;
    this.draw();
  }

  draw() {
    const data = this.data;
    clear(this.list);
    if (!data) return;
    this.width = this.list.clientWidth;
    const lanes = this.all ? data.threads : data.threads.slice(0, FIRST_LANES);
    const span = Math.max(data.durationMillis || 0, data.bucketMillis * (lanes[0] ? lanes[0].counts.length : 1), 1);
    let max = 1;
    for (const lane of lanes) for (const c of lane.counts) if (c > max) max = c;
    const color = getComputedStyle(this.list).getPropertyValue('--bars').trim() || '#6f93d8';
    for (const lane of lanes) this.list.appendChild(this.lane(lane, span, max, color));
    const hidden = data.threads.length - lanes.length;
    this.more.hidden = hidden <= 0;
    this.more.textContent = `Show all ${formatCount(data.threads.length)} threads`;
    this.note.textContent = !lanes.length ? 'No thread has samples of this kind and state.'
      : data.otherThreads > 0 ? `${formatCount(data.otherThreads)} quieter threads with ${formatCount(data.otherSamples)} samples are not listed.` : '';
  }

  lane(lane, span, max, color) {
    const name = lane.name || 'thread ' + lane.id;
    const picked = this.selected.includes(String(lane.id));
    const label = el('button', { type: 'button', class: 'lane-name', text: name, title: `${name}: ${formatCount(lane.samples)} samples \u2014 show only this thread`,
      onclick: () => this.onPick(lane.id) });
    const canvas = el('canvas', { class: 'lane-canvas', 'aria-label': `${name}: samples over time; drag to show this thread in a time range` });
    const brush = el('div', { class: 'lane-brush', hidden: true });
    const strip = el('div', { class: 'lane-strip' }, canvas, brush);
    const row = el('div', { class: 'lane' + (picked ? ' picked' : ''), role: 'listitem', dataset: { thread: String(lane.id), samples: String(lane.samples) } },
      label, strip, el('small', { class: 'lane-count', text: formatCount(lane.samples) }));
    requestAnimationFrame(() => this.paint(canvas, lane, span, max, color));
    // dragging across the strip picks a range of this thread; a plain click picks the thread
    strip.addEventListener('pointerdown', e => {
      if (e.button !== 0) return;
      const box = strip.getBoundingClientRect();
      const x0 = Math.max(0, Math.min(box.width, e.clientX - box.left));
      strip.setPointerCapture(e.pointerId);
      const move = ev => {
        const x = Math.max(0, Math.min(box.width, ev.clientX - box.left));
        brush.hidden = false;
        brush.style.left = Math.min(x0, x) + 'px';
        brush.style.width = Math.abs(x - x0) + 'px';
      };
      const up = ev => {
        strip.removeEventListener('pointermove', move);
        strip.removeEventListener('pointerup', up);
        brush.hidden = true;
        const x1 = Math.max(0, Math.min(box.width, ev.clientX - box.left));
        if (Math.abs(x1 - x0) < 3) { this.onPick(lane.id); return; }
        const at = x => Math.round(x / box.width * span);
        this.onPick(lane.id, at(Math.min(x0, x1)), at(Math.max(x0, x1)));
      };
      strip.addEventListener('pointermove', move);
      strip.addEventListener('pointerup', up);
    });
    return row;
  }

  paint(canvas, lane, span, max, color) {
    if (!this.data || !canvas.isConnected) return;
    const width = canvas.parentElement.clientWidth || 300, dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(LANE_HEIGHT * dpr);
    canvas.style.width = width + 'px';
    canvas.style.height = LANE_HEIGHT + 'px';
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const bucket = this.data.bucketMillis, scale = width / span;
    const w = Math.max(1, bucket * scale);
    ctx.fillStyle = color;
    lane.counts.forEach((c, i) => {
      if (!c) return;
      // even one sample shows: presence first, then how busy
      ctx.globalAlpha = 0.3 + 0.7 * Math.sqrt(c / max);
      ctx.fillRect(i * bucket * scale, 2, w, LANE_HEIGHT - 4);
    });
    ctx.globalAlpha = 1;
    if (this.range && this.selected.includes(String(lane.id))) {
      ctx.strokeStyle = getComputedStyle(canvas).getPropertyValue('--accent').trim() || '#2f6fdb';
      ctx.lineWidth = 1.5;
      const [from, to] = this.range;
      ctx.strokeRect(from * scale + 0.75, 0.75, Math.max(1, ((to ?? span) - from) * scale) - 1.5, LANE_HEIGHT - 1.5);
    }
  }
}
