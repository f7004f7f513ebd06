/**
 * Go's `path.Match`, ported: the registrar's provider patterns are Go globs (the upstream project
 * matches Secret names with `path.Match`), and minimatch differs from it (braces, extglobs, `[!..]`,
 * `**`, a leading `!` that negates). Semantics kept: `*` is any run of characters except `/`,
 * `?` one character except `/`, `[...]` a class with ranges and `^` negation, `\` escapes. A
 * malformed pattern raises {@link BadPatternError}, also when the name already failed to match.
 */

export class BadPatternError extends Error {
  constructor(pattern: string) {
    super(`syntax error in pattern ${JSON.stringify(pattern)}`);
    this.name = 'BadPatternError';
  }
}

type Runes = string[];

function scanChunk(pattern: Runes): {
  star: boolean;
  chunk: Runes;
  rest: Runes;
} {
  let p = pattern;
  let star = false;
  while (p.length > 0 && p[0] === '*') {
    p = p.slice(1);
    star = true;
  }
  let inRange = false;
  let i = 0;
  for (; i < p.length; i++) {
    const c = p[i];
    if (c === '*' && !inRange) break;
    if (c === '\\') {
      if (i + 1 < p.length) i++;
    } else if (c === '[') {
      inRange = true;
    } else if (c === ']') {
      inRange = false;
    }
  }
  return { star, chunk: p.slice(0, i), rest: p.slice(i) };
}

/** One class bound, with its escape; throws on a malformed class. */
function getEsc(chunk: Runes, pattern: string): { r: string; rest: Runes } {
  let c = chunk;
  if (c.length === 0 || c[0] === '-' || c[0] === ']') {
    throw new BadPatternError(pattern);
  }
  if (c[0] === '\\') {
    c = c.slice(1);
    if (c.length === 0) throw new BadPatternError(pattern);
  }
  const r = c[0];
  const rest = c.slice(1);
  if (rest.length === 0) throw new BadPatternError(pattern);
  return { r, rest };
}

const cp = (r: string) => r.codePointAt(0)!;

function matchChunk(
  chunkIn: Runes,
  sIn: Runes,
  pattern: string,
): { ok: boolean; rest: Runes } {
  let chunk = chunkIn;
  let s = sIn;
  // After a failure the loop goes on reading the chunk, to check it is well formed.
  let failed = false;
  while (chunk.length > 0) {
    if (!failed && s.length === 0) failed = true;
    switch (chunk[0]) {
      case '[': {
        let r = '';
        if (!failed) {
          r = s[0];
          s = s.slice(1);
        }
        chunk = chunk.slice(1);
        let negated = false;
        if (chunk.length > 0 && chunk[0] === '^') {
          negated = true;
          chunk = chunk.slice(1);
        }
        let match = false;
        let nrange = 0;
        for (;;) {
          if (chunk.length > 0 && chunk[0] === ']' && nrange > 0) {
            chunk = chunk.slice(1);
            break;
          }
          const lo = getEsc(chunk, pattern);
          chunk = lo.rest;
          let hi = lo.r;
          if (chunk[0] === '-') {
            const h = getEsc(chunk.slice(1), pattern);
            hi = h.r;
            chunk = h.rest;
          }
          if (!failed && cp(lo.r) <= cp(r) && cp(r) <= cp(hi)) match = true;
          nrange++;
        }
        if (match === negated) failed = true;
        break;
      }
      case '?':
        if (!failed) {
          if (s[0] === '/') failed = true;
          s = s.slice(1);
        }
        chunk = chunk.slice(1);
        break;
      case '\\':
        chunk = chunk.slice(1);
        if (chunk.length === 0) throw new BadPatternError(pattern);
        if (!failed) {
          if (chunk[0] !== s[0]) failed = true;
          s = s.slice(1);
        }
        chunk = chunk.slice(1);
        break;
      default:
        if (!failed) {
          if (chunk[0] !== s[0]) failed = true;
          s = s.slice(1);
        }
        chunk = chunk.slice(1);
    }
  }
  return failed ? { ok: false, rest: [] } : { ok: true, rest: s };
}

/**
 * Whether `name` matches the Go glob `pattern`; throws BadPatternError on a malformed pattern.
 *
 * @public
 */
export function pathMatch(pattern: string, name: string): boolean {
  let p: Runes = Array.from(pattern);
  let n: Runes = Array.from(name);
  while (p.length > 0) {
    const { star, chunk, rest } = scanChunk(p);
    p = rest;
    if (star && chunk.length === 0) {
      // A trailing * matches the rest of the name unless it holds a /.
      return !n.includes('/');
    }
    const here = matchChunk(chunk, n, pattern);
    // The last chunk must use up the name; otherwise a star may still match further on.
    if (here.ok && (here.rest.length === 0 || p.length > 0)) {
      n = here.rest;
      continue;
    }
    let advanced = false;
    if (star) {
      for (let i = 0; i < n.length && n[i] !== '/'; i++) {
        const t = matchChunk(chunk, n.slice(i + 1), pattern);
        if (t.ok && !(p.length === 0 && t.rest.length > 0)) {
          n = t.rest;
          advanced = true;
          break;
        }
      }
    }
    if (advanced) continue;
    // Before answering no, check the rest of the pattern is well formed.
    while (p.length > 0) {
      const next = scanChunk(p);
      p = next.rest;
      matchChunk(next.chunk, [], pattern);
    }
    return false;
  }
  return n.length === 0;
}

/**
 * Undefined when `pattern` is a well-formed Go glob, else why not (the check upstream makes).
 *
 * @public
 */
export function globError(pattern: string): string | undefined {
  try {
    pathMatch(pattern, 'probe');
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
