// A frame's context menu on a flame graph: the frame's sandwich, zoom to it, copy its name. Opened by a right
// click (or the context-menu key) on a frame; Escape, a click elsewhere or a choice closes it.

import { el, toast } from '../core/dom.js';

/**
 * graph: the FlameGraph (its tree and nodeAt(event)); actions: {sandwich(name), zoom(node)}. Returns {destroy()}.
 */
export function frameMenu(graph, actions) {
  const menu = el('div', { class: 'menu-items frame-menu', id: 'frame-menu', role: 'menu', hidden: true });
  document.body.appendChild(menu);
  let node = -1;
  const close = () => { menu.hidden = true; node = -1; };
  const item = (text, id, run) => el('button', { type: 'button', role: 'menuitem', id, text, onclick: () => { const n = node; close(); run(n); } });
  menu.append(
    item('Sandwich: callers and callees', 'frame-sandwich', n => actions.sandwich(graph.tree.nameOf(n))),
    item('Zoom to this frame', 'frame-zoom', n => actions.zoom(n)),
    item('Copy the frame name', 'frame-copy', n => {
      const name = graph.tree.nameOf(n);
      if (navigator.clipboard) navigator.clipboard.writeText(name).then(() => toast('Name copied'), () => toast(name));
    }));
  const open = e => {
    const at = graph.tree ? graph.nodeAt(e) : -1;
    if (at <= 0) return;
    e.preventDefault();
    node = at;
    menu.hidden = false;
    // fixed to the viewport, kept inside it
    const left = Math.min(e.clientX, window.innerWidth - menu.offsetWidth - 8), top = Math.min(e.clientY, window.innerHeight - menu.offsetHeight - 8);
    menu.style.left = Math.max(4, left) + 'px';
    menu.style.top = Math.max(4, top) + 'px';
    menu.firstChild.focus();
  };
  const outside = e => { if (!menu.hidden && !menu.contains(e.target)) close(); };
  const key = e => { if (e.key === 'Escape' && !menu.hidden) { e.stopPropagation(); close(); } };
  graph.canvas.addEventListener('contextmenu', open);
  menu.addEventListener('keydown', key);
  document.addEventListener('pointerdown', outside, true);
  return {
    destroy() {
      graph.canvas.removeEventListener('contextmenu', open);
      document.removeEventListener('pointerdown', outside, true);
      menu.remove();
    },
  };
}
