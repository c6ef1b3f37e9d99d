// The one place where a user's search meets frame names (the flame graph, and any table that filters by it). It means
// what the server's search= means (docs/http-api.md): plain text or a regular expression in RE2's syntax, found
// anywhere in the name, case-insensitive unless matchCase. Regular expressions never run on the browser's
// backtracking RegExp (a shared link's pattern could freeze the tab): linearregex.js matches in linear time. It is
// loaded on the first regular expression, so a page that shows no regex search does not wait for it.

let engine = null, loading = null;

/** Whether searchMatcher can take a regular expression now (else: await loadRegexEngine() first). */
export function regexEngineReady() {
  return engine !== null;
}

export function loadRegexEngine() {
  return loading ??= import('./linearregex.js').then(module => { engine = module; });
}

/**
 * A matcher {test(name)} for a search; throws SyntaxError (with the reason) for an invalid or unsupported regular
 * expression. options: {regex: the text is a regular expression (else plain text), matchCase}. A regular expression
 * needs the engine loaded (regexEngineReady).
 */
export function searchMatcher(text, { regex = false, matchCase = false } = {}) {
  if (regex) {
    if (!engine) throw new Error('the regular expression engine is not loaded yet');
    return engine.compileSearch(text, { ignoreCase: !matchCase });
  }
  if (matchCase) return { test: name => name.includes(text) };
  const lower = text.toLowerCase();
  return { test: name => name.toLowerCase().includes(lower) };
}

/** One flag per name of a dictionary: whether the search finds it. */
export function matchNames(names, matcher) {
  const hit = new Uint8Array(names.length);
  for (let k = 0; k < names.length; k++) hit[k] = matcher.test(names[k]) ? 1 : 0;
  return hit;
}
