// The flame graph's search, matched in linear time. A permalink's search= comes from whoever shared it, and the
// browser's RegExp backtracks: ((a+)+)+! froze a tab for seconds. This is a Thompson NFA (no captures) run as a
// lazily built DFA, the method of RE2, which the server uses too (RE2/J): the same syntax is accepted and refused
// on both sides (no back-references, no look-around), and counted repetition is bounded the same way.

const MAX_LENGTH = 1000;
const MAX_SIZE = 10000;

const CHAR = 0, SPLIT = 1, JMP = 2, MATCH = 3, BOL = 4, EOL = 5, WORDB = 6, NWORDB = 7;

const isWord = c => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isDigit = c => c >= 48 && c <= 57;
const isSpace = c => c === 32 || (c >= 9 && c <= 13);

/** Compiles pattern (ignoreCase: as RE2's (?i)); throws SyntaxError with a message for invalid, unsupported or too large patterns. */
export function compileSearch(pattern, { ignoreCase = false } = {}) {
  if (pattern.length > MAX_LENGTH) throw new SyntaxError(`at most ${MAX_LENGTH} characters`);
  const parser = new Parser(pattern);
  parser.ci = ignoreCase;
  const ast = parser.parse();
  if (size(ast) > MAX_SIZE) throw new SyntaxError(`repeats too much: more than ${MAX_SIZE} steps (nested {n} multiply)`);
  const prog = { op: [], x: [], y: [], pred: [] };
  emit(prog, ast);
  push(prog, MATCH);
  const dfa = new Dfa(prog);
  return { source: pattern, test: s => dfa.test(s) };
}

class Parser {
  constructor(p) { this.p = p; this.i = 0; this.ci = false; }

  fail(what) { throw new SyntaxError(`${what} at position ${this.i}`); }

  parse() {
    const node = this.alternation();
    if (this.i < this.p.length) this.fail('unmatched )');
    return node;
  }

  alternation() {
    const branches = [this.sequence()];
    while (this.p[this.i] === '|') { this.i++; branches.push(this.sequence()); }
    return branches.length === 1 ? branches[0] : { t: 'alt', branches };
  }

  sequence() {
    const items = [];
    const ci = this.ci;
    while (this.i < this.p.length && this.p[this.i] !== '|' && this.p[this.i] !== ')') {
      const atom = this.atom();
      if (atom) items.push(this.quantified(atom));
    }
    this.ci = ci;
    return { t: 'seq', items };
  }

  quantified(atom) {
    for (;;) {
      const c = this.p[this.i];
      let min, max;
      if (c === '*') { min = 0; max = Infinity; this.i++; }
      else if (c === '+') { min = 1; max = Infinity; this.i++; }
      else if (c === '?') { min = 0; max = 1; this.i++; }
      else if (c === '{') {
        const m = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(this.p.slice(this.i));
        if (!m) return atom; // a literal brace, as in RE2
        min = +m[1]; max = m[2] === undefined ? min : m[3] === '' ? Infinity : +m[3];
        if (max < min || min > 1000 || (max !== Infinity && max > 1000)) this.fail('bad repetition count');
        this.i += m[0].length;
      } else return atom;
      if (this.p[this.i] === '?') this.i++; // lazy: the same strings match
      if (this.p[this.i] === '+') this.fail('possessive repetition is not supported');
      if (atom.t === 'assert') this.fail('repetition of an anchor');
      atom = { t: 'rep', atom, min, max };
    }
  }

  atom() {
    const p = this.p, c = p[this.i++];
    if (c === '(') return this.group();
    if (c === '[') return this.charClass();
    if (c === '.') return this.pred(ch => ch !== 10);
    if (c === '^') return { t: 'assert', op: BOL };
    if (c === '$') return { t: 'assert', op: EOL };
    if (c === '\\') return this.escape(false);
    if (c === '*' || c === '+' || c === '?') this.fail('missing argument to repetition operator');
    return this.literal(c.charCodeAt(0));
  }

  group() {
    const p = this.p;
    let capture = true;
    if (p[this.i] === '?') {
      const rest = p.slice(this.i + 1);
      if (rest.startsWith(':')) { this.i += 2; capture = false; }
      else if (/^P?<[A-Za-z_]\w*>/.test(rest)) { this.i += 1 + rest.indexOf('>') + 1; }
      else if (/^(=|!|<=|<!)/.test(rest)) this.fail('look-around is not supported');
      else {
        const m = /^([imsU]*)(-[imsU]*)?(:|\))/.exec(rest);
        if (!m) this.fail('unknown group flag');
        const on = m[1], off = m[2] || '';
        if (/[msU]/.test(on + off)) this.fail('only the i flag is supported');
        this.i += 1 + m[0].length;
        if (m[3] === ')') { this.ci = on.includes('i') ? true : off.includes('i') ? false : this.ci; return null; }
        const saved = this.ci;
        this.ci = on.includes('i') ? true : off.includes('i') ? false : this.ci;
        const inner = this.alternation();
        this.ci = saved;
        if (p[this.i++] !== ')') this.fail('missing )');
        return inner;
      }
    }
    void capture;
    const saved = this.ci;
    const inner = this.alternation();
    this.ci = saved;
    if (p[this.i++] !== ')') this.fail('missing )');
    return inner;
  }

  escape(inClass) {
    const p = this.p, c = p[this.i++];
    if (c === undefined) this.fail('trailing backslash');
    switch (c) {
      case 'd': return this.pred(isDigit);
      case 'D': return this.pred(ch => !isDigit(ch));
      case 'w': return this.pred(isWord);
      case 'W': return this.pred(ch => !isWord(ch));
      case 's': return this.pred(isSpace);
      case 'S': return this.pred(ch => !isSpace(ch));
      case 'n': return this.literal(10);
      case 't': return this.literal(9);
      case 'r': return this.literal(13);
      case 'f': return this.literal(12);
      case 'v': return this.literal(11);
      case 'b': if (!inClass) return { t: 'assert', op: WORDB }; break;
      case 'B': if (!inClass) return { t: 'assert', op: NWORDB }; break;
      case 'A': if (!inClass) return { t: 'assert', op: BOL }; break;
      case 'z': if (!inClass) return { t: 'assert', op: EOL }; break;
      case 'x': {
        const m = /^(\{([0-9A-Fa-f]{1,6})\}|[0-9A-Fa-f]{2})/.exec(p.slice(this.i));
        if (!m) this.fail('bad \\x escape');
        this.i += m[0].length;
        return this.literal(parseInt(m[2] || m[1], 16));
      }
      case 'Q': {
        const end = p.indexOf('\\E', this.i);
        const text = p.slice(this.i, end < 0 ? p.length : end);
        this.i = end < 0 ? p.length : end + 2;
        return { t: 'seq', items: [...text].map(ch => this.literal(ch.charCodeAt(0))) };
      }
      default:
        if (/[1-9]/.test(c)) this.fail('back-references are not supported');
        if (/[A-Za-z0-9]/.test(c)) this.fail(`unknown escape \\${c}`);
        return this.literal(c.charCodeAt(0));
    }
    this.fail(`\\${c} inside a class`);
  }

  charClass() {
    const p = this.p;
    let negate = false;
    if (p[this.i] === '^') { negate = true; this.i++; }
    const parts = [];
    let first = true;
    while (this.i < p.length && (p[this.i] !== ']' || first)) {
      first = false;
      let lo;
      if (p[this.i] === '[' && p[this.i + 1] === ':') {
        const end = p.indexOf(':]', this.i);
        if (end < 0) this.fail('bad POSIX class');
        const name = p.slice(this.i + 2, end);
        const named = { alpha: ch => /[A-Za-z]/.test(String.fromCharCode(ch)), digit: isDigit, alnum: ch => isWord(ch) && ch !== 95,
          space: isSpace, upper: ch => ch >= 65 && ch <= 90, lower: ch => ch >= 97 && ch <= 122, word: isWord,
          punct: ch => /[!-\/:-@[-`{-~]/.test(String.fromCharCode(ch)), xdigit: ch => /[0-9A-Fa-f]/.test(String.fromCharCode(ch)) }[name];
        if (!named) this.fail(`unknown class [:${name}:]`);
        parts.push(named);
        this.i = end + 2;
        continue;
      }
      if (p[this.i] === '\\') {
        this.i++;
        const e = this.escape(true);
        if (e.t === 'char' && e.code !== undefined) lo = e.code; else { parts.push(e.test); continue; }
      } else lo = p.charCodeAt(this.i++);
      let hi = lo;
      if (p[this.i] === '-' && p[this.i + 1] !== ']' && this.i + 1 < p.length) {
        this.i++;
        if (p[this.i] === '\\') { this.i++; const e = this.escape(true); if (e.code === undefined) this.fail('bad range'); hi = e.code; }
        else hi = p.charCodeAt(this.i++);
        if (hi < lo) this.fail('bad character class range');
      }
      parts.push(ch => ch >= lo && ch <= hi);
    }
    if (p[this.i++] !== ']') this.fail('missing ]');
    return this.pred(ch => parts.some(f => f(ch)) !== negate);
  }

  literal(code) { const n = this.pred(ch => ch === code); n.code = code; return n; }

  pred(test) {
    if (!this.ci) return { t: 'char', test };
    return { t: 'char', test: ch => test(ch) || test(swapCase(ch)) };
  }
}

function swapCase(ch) {
  const s = String.fromCharCode(ch), l = s.toLowerCase();
  return (l === s ? s.toUpperCase() : l).charCodeAt(0);
}

function size(n) {
  switch (n.t) {
    case 'char': case 'assert': return 1;
    case 'seq': return n.items.reduce((a, x) => a + size(x), 0);
    case 'alt': return n.branches.reduce((a, x) => a + size(x) + 1, 0);
    case 'rep': return Math.max(1, size(n.atom)) * (n.max === Infinity ? n.min + 1 : Math.max(n.max, 1)) + 1;
  }
  return 1;
}

function push(prog, op, x = 0, y = 0, pred = null) {
  prog.op.push(op); prog.x.push(x); prog.y.push(y); prog.pred.push(pred);
  return prog.op.length - 1;
}

function emit(prog, n) {
  switch (n.t) {
    case 'char': push(prog, CHAR, 0, 0, n.test); return;
    case 'assert': push(prog, n.op); return;
    case 'seq': for (const item of n.items) emit(prog, item); return;
    case 'alt': {
      const jumps = [];
      for (let k = 0; k < n.branches.length - 1; k++) {
        const split = push(prog, SPLIT);
        prog.x[split] = split + 1;
        emit(prog, n.branches[k]);
        jumps.push(push(prog, JMP));
        prog.y[split] = prog.op.length;
      }
      emit(prog, n.branches[n.branches.length - 1]);
      for (const j of jumps) prog.x[j] = prog.op.length;
      return;
    }
    case 'rep': {
      for (let k = 0; k < n.min; k++) emit(prog, n.atom);
      if (n.max === Infinity) {
        const split = push(prog, SPLIT);
        prog.x[split] = split + 1;
        emit(prog, n.atom);
        prog.x[push(prog, JMP)] = split;
        prog.y[split] = prog.op.length;
      } else {
        const splits = [];
        for (let k = n.min; k < n.max; k++) {
          const split = push(prog, SPLIT);
          prog.x[split] = split + 1;
          splits.push(split);
          emit(prog, n.atom);
        }
        for (const s of splits) prog.y[s] = prog.op.length;
      }
    }
  }
}

const MATCHED = -2, UNKNOWN = -1, MAX_STATES = 4096;

/**
 * Runs a program as a DFA built lazily from its NFA states, as RE2 does: a state is the set of program steps alive
 * before a character, plus whether the previous character was a word character (for \b) and whether it is the
 * first position (for ^); each transition is computed once, on first use, and cached, so a character costs one table
 * lookup and a cache miss one pass over the program. Linear in the input whatever the pattern; the cache is
 * bounded (it starts afresh when full), so memory is too.
 */
class Dfa {
  constructor(prog) {
    this.prog = prog;
    const n = prog.op.length;
    this.mark = new Int32Array(n);
    this.generation = 0;
    this.stack = new Int32Array(2 * n + 2);
    this.reset();
  }

  reset() {
    this.ids = new Map();
    this.sets = [];
    this.flags = [];
    this.ascii = [];
    this.other = [];
    this.atEnd = [];
    this.start = this.intern([0], 1);
  }

  intern(set, flags) {
    const key = flags + ':' + set.join(',');
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.sets.length;
      this.ids.set(key, id);
      this.sets.push(set);
      this.flags.push(flags);
      this.ascii.push(new Int32Array(128).fill(UNKNOWN));
      this.other.push(new Map());
      this.atEnd.push(UNKNOWN);
    }
    return id;
  }

  /**
   * The steps waiting for a character (CHAR) reachable from a state's set before character c (-1: the end), or
   * null when the program matches at this position.
   */
  closure(state, c) {
    const { op, x, y } = this.prog, stack = this.stack, mark = this.mark;
    const flags = this.flags[state], first = (flags & 1) !== 0, prevWord = (flags & 2) !== 0;
    const nextWord = c >= 0 && isWord(c);
    const gen = ++this.generation, waiting = [];
    let sp = 0;
    for (const pc of this.sets[state]) stack[sp++] = pc;
    while (sp > 0) {
      const pc = stack[--sp];
      if (mark[pc] === gen) continue;
      mark[pc] = gen;
      switch (op[pc]) {
        case MATCH: return null;
        case CHAR: waiting.push(pc); break;
        case JMP: stack[sp++] = x[pc]; break;
        case SPLIT: stack[sp++] = y[pc]; stack[sp++] = x[pc]; break;
        case BOL: if (first) stack[sp++] = pc + 1; break;
        case EOL: if (c < 0) stack[sp++] = pc + 1; break;
        case WORDB: if (prevWord !== nextWord) stack[sp++] = pc + 1; break;
        case NWORDB: if (prevWord === nextWord) stack[sp++] = pc + 1; break;
      }
    }
    return waiting;
  }

  /** The state after character c, computed and cached; MATCHED when the program matches before c. */
  step(state, c) {
    const waiting = this.closure(state, c);
    let next = MATCHED;
    if (waiting) {
      const pred = this.prog.pred, set = [0]; // unanchored: a new attempt starts at every position
      for (const pc of waiting) if (pred[pc](c)) set.push(pc + 1);
      set.sort((a, b) => a - b);
      const unique = set.filter((pc, k) => k === 0 || pc !== set[k - 1]);
      if (this.sets.length >= MAX_STATES) {
        this.reset();
        return this.intern(unique, isWord(c) ? 2 : 0);
      }
      next = this.intern(unique, isWord(c) ? 2 : 0);
    }
    if (c < 128) this.ascii[state][c] = next; else this.other[state].set(c, next);
    return next;
  }

  test(s) {
    let state = this.start;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      let next = c < 128 ? this.ascii[state][c] : (this.other[state].get(c) ?? UNKNOWN);
      if (next === UNKNOWN) next = this.step(state, c);
      if (next === MATCHED) return true;
      state = next;
    }
    if (this.atEnd[state] === UNKNOWN) this.atEnd[state] = this.closure(state, -1) ? 0 : 1;
    return this.atEnd[state] === 1;
  }
}
