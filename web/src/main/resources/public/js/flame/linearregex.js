// The flame graph's search, matched in linear time. A permalink's search= comes from whoever shared it, and the
// browser's RegExp backtracks: ((a+)+)+! froze a tab for seconds. This is a Thompson NFA run as a Pike VM (no
// captures), the method of RE2, which the server uses too (RE2/J): the same syntax is accepted and refused on
// both sides (no back-references, no look-around), and counted repetition is bounded the same way.

const MAX_LENGTH = 1000;
const MAX_SIZE = 10000;

const CHAR = 0, SPLIT = 1, JMP = 2, MATCH = 3, BOL = 4, EOL = 5, WORDB = 6, NWORDB = 7;

const isWord = c => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isDigit = c => c >= 48 && c <= 57;
const isSpace = c => c === 32 || (c >= 9 && c <= 13);

/** Compiles pattern; throws SyntaxError with a message for invalid, unsupported or too large patterns. */
export function compileSearch(pattern) {
  if (pattern.length > MAX_LENGTH) throw new SyntaxError(`at most ${MAX_LENGTH} characters`);
  const ast = new Parser(pattern).parse();
  if (size(ast) > MAX_SIZE) throw new SyntaxError(`repeats too much: more than ${MAX_SIZE} steps (nested {n} multiply)`);
  const prog = { op: [], x: [], y: [], pred: [] };
  emit(prog, ast);
  push(prog, MATCH);
  return { lastIndex: 0, source: pattern, test: s => run(prog, s) };
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

/** Whether prog matches anywhere in s: one pass over s, each program step at most once per position. */
function run(prog, s) {
  const n = prog.op.length;
  let clist = new Int32Array(n), nlist = new Int32Array(n), ccount = 0, ncount = 0;
  const mark = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n * 2 + 2);
  let generation = 0;
  const add = (list, count, pc0, i) => {
    let sp = 0;
    stack[sp++] = pc0;
    while (sp > 0) {
      const pc = stack[--sp];
      if (mark[pc] === generation) continue;
      mark[pc] = generation;
      switch (prog.op[pc]) {
        case JMP: stack[sp++] = prog.x[pc]; break;
        case SPLIT: stack[sp++] = prog.y[pc]; stack[sp++] = prog.x[pc]; break;
        case BOL: if (i === 0) stack[sp++] = pc + 1; break;
        case EOL: if (i === s.length) stack[sp++] = pc + 1; break;
        case WORDB: case NWORDB: {
          const boundary = (i > 0 && isWord(s.charCodeAt(i - 1))) !== (i < s.length && isWord(s.charCodeAt(i)));
          if (boundary === (prog.op[pc] === WORDB)) stack[sp++] = pc + 1;
          break;
        }
        default: list[count++] = pc;
      }
    }
    return count;
  };
  // a list holds the threads at one position; generation i + 1 marks what the list for position i holds already
  for (let i = 0; i <= s.length; i++) {
    generation = i + 1;
    ccount = add(clist, ccount, 0, i); // unanchored: a new attempt starts at every position
    generation = i + 2;
    ncount = 0;
    const ch = i < s.length ? s.charCodeAt(i) : -1;
    for (let k = 0; k < ccount; k++) {
      const pc = clist[k];
      if (prog.op[pc] === MATCH) return true;
      if (ch >= 0 && prog.pred[pc](ch)) ncount = add(nlist, ncount, pc + 1, i + 1);
    }
    [clist, nlist] = [nlist, clist];
    ccount = ncount;
  }
  return false;
}
