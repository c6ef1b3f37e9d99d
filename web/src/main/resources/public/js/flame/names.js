// Frame names as the flame graph shows and links them: the short Class.method label, and the collapsed-text escaping
// (importer/CollapsedFormat, docs/importer.md) that makes a zoom= path of any names (';', line breaks, NUL) split
// back into the same names.

/**
 * The label of a frame: Class.method (descriptor shortened), without the package; a native function without its
 * library; other names as they are.
 */
export function shortName(name) {
  // a native frame's library ("libjvm.so.", "libc.so.6.") is not part of its function's name
  const library = /^lib[\w+\-]*\.so(\.\d+)*\.(?![\d.]*$)/.exec(name);
  if (library) return name.slice(library[0].length);
  const paren = name.indexOf('(');
  let head = paren > 0 ? name.slice(0, paren) : name, tail = paren > 0 ? name.slice(paren) : '';
  // a line suffix (":123", with lines=true) stays on the label
  if (!tail) {
    const line = /:\d+$/.exec(head);
    if (line) { tail = line[0]; head = head.slice(0, line.index); }
  }
  if (!/^[\w$<>\-]+(\.[\w$<>\-]+)+(\[\])*$/.test(head)) return name;
  const parts = head.split('.');
  // no Java identifier starts with a digit: a C symbol's suffix (finish_task_switch.isra.0)
  if (/^\d/.test(parts[parts.length - 1])) return name;
  // package segments start lower case; the class (a hidden class's name may hold dots too) and the method follow;
  // an allocated class's frame has no method
  const last = /^[A-Z]/.test(parts[parts.length - 1]) ? parts.length - 1 : parts.length - 2;
  let first = 0;
  while (first < last && /^[a-z_]/.test(parts[first])) first++;
  return parts.slice(first).join('.') + (tail.startsWith('(') ? shortDescriptor(tail) : tail);
}

const PRIMITIVES = { B: 'byte', C: 'char', D: 'double', F: 'float', I: 'int', J: 'long', S: 'short', Z: 'boolean', V: 'void' };

/** "(Ljava/lang/String;I)V:12" -> "(String, int):12"; anything it does not understand is returned as it is. */
function shortDescriptor(text) {
  const close = text.indexOf(')');
  if (close < 0) return text;
  const args = [];
  let i = 1;
  while (i < close) {
    let dims = 0;
    while (text[i] === '[') { dims++; i++; }
    let type;
    if (text[i] === 'L') {
      const end = text.indexOf(';', i);
      if (end < 0 || end > close) return text;
      type = text.slice(i + 1, end).replace(/^.*[/.]/, '');
      i = end + 1;
    } else if (PRIMITIVES[text[i]]) {
      type = PRIMITIVES[text[i++]];
    } else return text;
    args.push(type + '[]'.repeat(dims));
  }
  // the return type is left out; a line suffix after it stays
  const line = /:\d+$/.exec(text);
  return '(' + args.join(', ') + ')' + (line ? line[0] : '');
}

// what CollapsedFormat.escapeFrame writes with a backslash; the rest of a name is written as it is
const ESCAPES = { '\\': '\\\\', ';': '\\;', '\n': '\\n', '\r': '\\r', '\t': '\\t', '#': '\\#', '[': '\\[' };

function plain(name, i) {
  const c = name.charCodeAt(i);
  if (c === 0x5c || c === 0x3b || c < 0x20 || c === 0x7f || c === 0x85 || c === 0x2028 || c === 0x2029) return false;
  if (c === 0x23) return i > 0; // a leading '#' would start a comment line
  if (c === 0x5b) { // a name's own trailing _[x] would read as a frame-type suffix
    const n = name.length;
    return !(i === n - 3 && i > 0 && name[i - 1] === '_' && name[n - 1] === ']');
  }
  return true;
}

/** A frame name as collapsed text writes it (CollapsedFormat.escapeFrame). */
export function escapeFrame(name) {
  let i = 0;
  while (i < name.length && plain(name, i)) i++;
  if (i === name.length) return name;
  let out = name.slice(0, i);
  for (; i < name.length; i++) {
    const ch = name[i];
    if (plain(name, i)) { out += ch; continue; }
    const c = name.charCodeAt(i);
    out += ESCAPES[ch] || (c < 0x100 ? '\\x' + c.toString(16).padStart(2, '0') : '\\u' + c.toString(16).padStart(4, '0'));
  }
  return out;
}

const UNESCAPES = { '\\': '\\', ';': ';', '#': '#', '[': '[', n: '\n', r: '\r', t: '\t' };

/** The name escapeFrame wrote (CollapsedFormat.unescapeFrame): a backslash before any other character stays. */
export function unescapeFrame(text) {
  if (!text.includes('\\')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '\\' || i + 1 === text.length) { out += c; continue; }
    const e = text[i + 1];
    const hex = e === 'x' ? 2 : e === 'u' ? 4 : 0;
    if (hex && i + 2 + hex <= text.length && /^[0-9a-fA-F]+$/.test(text.slice(i + 2, i + 2 + hex))) {
      out += String.fromCharCode(parseInt(text.slice(i + 2, i + 2 + hex), 16));
      i += 1 + hex;
      continue;
    }
    out += UNESCAPES[e] !== undefined ? UNESCAPES[e] : c + e;
    i++;
  }
  return out;
}

/** A path of frame names as one string: escaped names joined by ';', as a collapsed line writes a stack. */
export function joinPath(names) {
  return names.map(escapeFrame).join(';');
}

/** The names of a joined path: split on the ';' no backslash escapes, each name unescaped. */
export function splitPath(text) {
  if (!text) return [];
  const names = [];
  let start = 0, backslashes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === ';' && backslashes % 2 === 0) { names.push(unescapeFrame(text.slice(start, i))); start = i + 1; }
    backslashes = c === '\\' ? backslashes + 1 : 0;
  }
  names.push(unescapeFrame(text.slice(start)));
  return names;
}
