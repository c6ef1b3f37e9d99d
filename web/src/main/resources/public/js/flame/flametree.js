// The flame tree as typed arrays, built from the API's columnar form (pre-order nodes; the subtree of i is
// i .. i + count[i] - 1). Layout (x offset and depth) is computed once in O(n) so that zooming only redraws.

import { typeCode, UNKNOWN_TYPE } from './colors.js';
import { escapeFrame } from './names.js';

export class FlameTree {
  /**
   * @param names    name dictionary
   * @param nodes    {name, count, total} plus either parent or nothing (derived from count), and either type
   *                 (one string per node) or typeIndex into types (the binary form); arrays or typed arrays
   * @param weights  replaces total (the diff page's mean shares); self is then derived
   */
  constructor(names, nodes, weights) {
    const n = nodes.name.length;
    this.names = names;
    this.size = n;
    // the binary form's typed columns (of whatever width) are used as they are; JSON arrays are copied once
    const typed = (column, Type) => (ArrayBuffer.isView(column) ? column : Type.from(column));
    this.name = typed(nodes.name, Int32Array);
    this.count = typed(nodes.count, Int32Array);
    this.total = typed(weights || nodes.total, Float64Array);
    this.type = frameTypes(names, this.name, nodes);
    // one pass: parent (when not sent: the innermost open subtree), self, depth and x offset
    const derive = !nodes.parent, deriveSelf = !nodes.self || !!weights;
    const parent = this.parent = derive ? new Int32Array(n) : Int32Array.from(nodes.parent);
    // the typed-array constructor copies in bulk (from() would go element by element through an iterator)
    const self = this.self = new Float64Array(deriveSelf ? this.total : nodes.self);
    const depth = this.depth = new Uint16Array(n), x = this.x = new Float64Array(n), next = new Float64Array(n);
    const count = this.count, totals = this.total;
    const open = new Int32Array(derive ? n : 0), end = new Int32Array(derive ? n : 0);
    let top = -1, maxDepth = 0;
    for (let i = 0; i < n; i++) {
      if (derive) {
        while (top >= 0 && end[top] <= i) top--;
        parent[i] = top >= 0 ? open[top] : -1;
        open[++top] = i;
        end[top] = i + Math.max(1, count[i]);
      }
      const p = parent[i];
      if (p < 0) continue;
      x[i] = next[p];
      next[p] += totals[i];
      next[i] = x[i];
      const d = depth[p] + 1;
      depth[i] = d;
      if (d > maxDepth) maxDepth = d;
      if (deriveSelf) self[p] -= totals[i];
    }
    this.maxDepth = maxDepth;
  }

  nameOf(i) { return this.names[this.name[i]]; }

  /** Names from the root's child down to node i (the root `all` is implied). */
  pathOf(i) {
    const path = [];
    for (let j = i; j > 0; j = this.parent[j]) path.push(this.nameOf(j));
    return path.reverse();
  }

  /** Finds a node by its path of names; returns the deepest node found and whether all matched. */
  findPath(path) {
    let node = 0, matched = 0;
    for (const wanted of path) {
      let found = -1;
      const end = node + this.count[node];
      for (let c = node + 1; c < end; c += this.count[c]) {
        if (this.nameOf(c) === wanted) { found = c; break; }
      }
      if (found < 0) break;
      node = found;
      matched++;
    }
    return { node, complete: matched === path.length };
  }

  /**
   * The nodes whose name matches (nameHit: a flag per name, search.js's matchNames), the weight of samples with at
   * least one matching frame and its share, and the outermost matches (no matching frame below them), in order.
   */
  search(nameHit) {
    const hit = new Uint8Array(this.size), outer = [];
    const name = this.name, total = this.total, count = this.count;
    let matched = 0, coverEnd = 0, nodes = 0;
    for (let i = 1; i < this.size; i++) {
      if (!nameHit[name[i]]) continue;
      hit[i] = 1;
      nodes++;
      if (i >= coverEnd) { matched += total[i]; coverEnd = i + count[i]; outer.push(i); }
    }
    return { hit, nameHit, matched, nodes, outer, share: total[0] ? matched / total[0] : 0 };
  }

  /**
   * Hot methods: self and total per name (total counted once per stack even under recursion). In an inverted
   * tree the first level holds the leaf frames, so a method's self weight is its first-level total there.
   */
  methods(inverted = false) {
    const k = this.names.length;
    const self = new Float64Array(k), total = new Float64Array(k), onStack = new Int32Array(k);
    // the open frames (their subtree's end) as typed arrays: no object per node
    const stackNode = new Int32Array(this.maxDepth + 2), stackEnd = new Int32Array(this.maxDepth + 2);
    const names = this.name, count = this.count, totals = this.total, selfs = this.self, depth = this.depth;
    let top = 0;
    for (let i = 1; i < this.size; i++) {
      while (top > 0 && stackEnd[top - 1] <= i) onStack[names[stackNode[--top]]]--;
      const nm = names[i];
      if (!inverted) self[nm] += selfs[i];
      else if (depth[i] === 1) self[nm] += totals[i];
      if (onStack[nm] === 0) total[nm] += totals[i];
      onStack[nm]++;
      stackNode[top] = i;
      stackEnd[top++] = i + count[i];
    }
    const rows = [];
    for (let nm = 0; nm < k; nm++) if (total[nm] > 0 && nm !== this.name[0]) rows.push({ name: this.names[nm], self: self[nm], total: total[nm] });
    return rows;
  }

  /** The heaviest node carrying a name, or -1. */
  heaviest(name) {
    let best = -1;
    for (let i = 1; i < this.size; i++) {
      if (this.nameOf(i) === name && (best < 0 || this.total[i] > this.total[best])) best = i;
    }
    return best;
  }

  /** Collapsed stacks ("a;b;c weight"), one line per node with self weight; names escaped as the server writes them. */
  collapsed() {
    const lines = [], path = [];
    for (let i = 1; i < this.size; i++) {
      const d = this.depth[i];
      path.length = d - 1;
      path.push(escapeFrame(this.nameOf(i)));
      const self = Math.round(this.self[i]);
      if (self > 0) lines.push(path.join(';') + ' ' + self);
    }
    return lines.join('\n') + '\n';
  }
}

/** The tree of a flame graph answer (api.flame); its build is marked for the split of a first paint (DevTools, FlameGraphBenchmark). */
export function buildTree(flame) {
  performance.mark('workbench:flame-data');
  const tree = new FlameTree(flame.names, flame.nodes);
  performance.mark('workbench:flame-tree');
  return tree;
}

/**
 * The diff page's merged tree (api.diff's answer): width = the mean of both sides' shares (of weight per second in
 * absolute mode); delta, each node's change; significance, +1 grew, -1 shrank, 0 not significant (the server's per
 * node, else its method's); maxAbs, the largest significant change. Here beside buildTree so that core/boot.js builds
 * it from a linked diff's early answer with the same two modules.
 */
export function buildDiffTree(diff) {
  performance.mark('workbench:diff-data');
  const absolute = diff.mode === 'absolute';
  const n = diff.nodes.name.length;
  const bt = absolute ? diff.baseSeconds || 1 : diff.baseTotal || 1, tt = absolute ? diff.targetSeconds || 1 : diff.targetTotal || 1;
  const weights = new Float64Array(n), delta = new Float64Array(n);
  const significance = diff.nodes.significance || significantByMethod(diff);
  let maxAbs = 0;
  for (let i = 0; i < n; i++) {
    const b = diff.nodes.base[i] / bt, t = diff.nodes.target[i] / tt;
    weights[i] = (b + t) / 2;
    delta[i] = t - b;
    if (i > 0 && significance[i] && Math.abs(delta[i]) > maxAbs) maxAbs = Math.abs(delta[i]);
  }
  const tree = new FlameTree(diff.names, diff.nodes, weights);
  performance.mark('workbench:diff-tree');
  return { tree, delta, significance, maxAbs };
}

/**
 * Significance per node where the server sends none: a node is coloured when its method's total change is
 * significant (the sign of that change).
 */
function significantByMethod(diff) {
  const byName = new Map();
  for (const c of diff.changes || []) if (c.significant) byName.set(c.method, Math.sign(c.delta));
  const n = diff.nodes.name.length, out = new Int8Array(n);
  for (let i = 1; i < n; i++) out[i] = byName.get(diff.names[diff.nodes.name[i]]) || 0;
  return out;
}

/** Colour class per node; untyped frames (collapsed text uploads) are classified by name, once per name. */
function frameTypes(names, name, nodes) {
  const n = name.length, out = new Uint8Array(n);
  // -1: not classified yet; a per-name table keeps the per-node loop to two array reads
  const byName = new Int16Array(names.length).fill(-1);
  const guessed = nm => (byName[nm] >= 0 ? byName[nm] : (byName[nm] = typeCode('', names[nm])));
  if (nodes.typeIndex) {
    const table = nodes.types.map(t => typeCode(t));
    const typeIndex = nodes.typeIndex;
    for (let i = 0; i < n; i++) {
      const code = table[typeIndex[i]];
      out[i] = code === undefined || code === UNKNOWN_TYPE ? guessed(name[i]) : code;
    }
    return out;
  }
  const types = nodes.type || [], cache = new Map();
  for (let i = 0; i < n; i++) {
    const t = types[i] || '';
    let code = cache.get(t);
    if (code === undefined) { code = typeCode(t); cache.set(t, code); }
    out[i] = code === UNKNOWN_TYPE ? guessed(name[i]) : code;
  }
  return out;
}
