import { expandBraces } from '@sextant/contracts';

/**
 * Path globs matched in time linear in the path (times the pattern size), whatever the
 * pattern. Regex-based matchers (picomatch, minimatch) backtrack: `**\/*?*?*?…Z` against
 * a long path takes seconds to minutes and blocks the event loop. Here each expanded
 * pattern is a small NFA simulated over the path one character at a time, so there is no
 * backtracking to exploit.
 *
 * Syntax (picomatch's, with `dot: true`): `*` any run within a segment, `?` one character
 * but `/`, `[abc]` `[a-z]` `[!x]` classes, `**` as a whole segment for any number of
 * directories, `{a,b}` alternatives, `\` escapes, a leading `!` negates, a leading `./` is ignored.
 */
export type GlobMatcher = ((path: string, meter?: MatchMeter) => boolean) & {
  /** How many brace-free patterns it runs per path. */
  readonly patterns: number;
};

/** Counts matching work (NFA states visited), so a caller can bound it independently of machine load. */
export interface MatchMeter {
  steps: number;
}

type CharTest = (c: number) => boolean;

/** NFA node kinds: consume one char and go to next; self-loop on a char or move on; fork; accept. */
type Node = { kind: 'char'; test: CharTest; next: number } | { kind: 'loop'; test: CharTest; next: number } | { kind: 'fork'; next: number; alt: number } | { kind: 'accept' };

const SLASH = 47;
const notSlash: CharTest = (c) => c !== SLASH;
const anyChar: CharTest = () => true;

/** Compiles one (brace-free) pattern into an NFA. */
function compileNfa(pattern: string): Node[] {
  const nodes: Node[] = [];
  // Each builder appends nodes and links the previous tail to them; `next` is patched as we go.
  const emit = (node: Node): number => nodes.push(node) - 1;
  const segments = pattern.split('/');
  const tails: Array<{ node: number; field: 'next' | 'alt' }> = [];
  const link = (target: number) => {
    for (const t of tails) (nodes[t.node] as { next: number; alt: number })[t.field] = target;
    tails.length = 0;
  };
  const append = (node: Node, field: 'next' = 'next'): number => {
    const id = emit(node);
    link(id);
    tails.push({ node: id, field });
    return id;
  };
  const literal = (ch: number) => append({ kind: 'char', test: (c) => c === ch, next: -1 });

  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === '**') {
      if (segments.length === 1) {
        append({ kind: 'loop', test: anyChar, next: -1 });
      } else if (last) {
        // `a/**`: `a`, `a/` or anything below `a/`.
        const fork = append({ kind: 'fork', next: -1, alt: -1 });
        tails.length = 0;
        tails.push({ node: fork, field: 'next' });
        literal(SLASH);
        append({ kind: 'loop', test: anyChar, next: -1 });
        tails.push({ node: fork, field: 'alt' });
      } else {
        // `**/` here: nothing, or any directories ending in `/`; the segment's own slash is part of it.
        const fork = append({ kind: 'fork', next: -1, alt: -1 });
        tails.length = 0;
        tails.push({ node: fork, field: 'next' });
        append({ kind: 'loop', test: anyChar, next: -1 });
        literal(SLASH);
        tails.push({ node: fork, field: 'alt' });
      }
      return;
    }
    appendSegment(segment, append, literal);
    // `a/**` handles its own slash; so does a following `**/` (it may be empty).
    if (!last && !(segments[i + 1] === '**' && i + 1 === segments.length - 1)) literal(SLASH);
  });
  append({ kind: 'accept' });
  return nodes;
}

function appendSegment(segment: string, append: (n: Node) => number, literal: (ch: number) => number): void {
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i];
    if (ch === '\\' && i + 1 < segment.length) {
      literal(segment.charCodeAt(++i));
    } else if (ch === '*') {
      while (segment[i + 1] === '*') i++; // `**` inside a segment is `*`
      append({ kind: 'loop', test: notSlash, next: -1 });
    } else if (ch === '?') {
      append({ kind: 'char', test: notSlash, next: -1 });
    } else if (ch === '[') {
      const cls = parseClass(segment, i);
      if (cls) {
        append({ kind: 'char', test: cls.test, next: -1 });
        i = cls.end;
      } else literal(ch.charCodeAt(0));
    } else literal(segment.charCodeAt(i));
  }
}

/** `[…]` starting at `start`: its test and the index of its `]`, or null when unterminated (then `[` is literal). */
function parseClass(s: string, start: number): { test: CharTest; end: number } | null {
  let i = start + 1;
  const negate = s[i] === '!' || s[i] === '^';
  if (negate) i++;
  const ranges: Array<[number, number]> = [];
  let first = true;
  for (; i < s.length; i++) {
    if (s[i] === ']' && !first) {
      const test: CharTest = (c) => c !== SLASH && ranges.some(([lo, hi]) => c >= lo && c <= hi) !== negate;
      return { test, end: i };
    }
    first = false;
    let lo = s.charCodeAt(i);
    if (s[i] === '\\' && i + 1 < s.length) lo = s.charCodeAt(++i);
    if (s[i + 1] === '-' && i + 2 < s.length && s[i + 2] !== ']') {
      let hi = s.charCodeAt(i + 2);
      i += 2;
      if (s[i] === '\\' && i + 1 < s.length) hi = s.charCodeAt(++i);
      ranges.push([Math.min(lo, hi), Math.max(lo, hi)]);
    } else ranges.push([lo, lo]);
  }
  return null;
}

/** Runs the NFA over `path`: the set of live nodes advances one character at a time. */
function runNfa(nodes: Node[], path: string, meter?: MatchMeter): boolean {
  let current: number[] = [];
  let next: number[] = [];
  const seen = new Int32Array(nodes.length).fill(-1);
  let generation = 0;
  const add = (set: number[], id: number) => {
    // Epsilon closure: forks and loops (which may be skipped) reach further nodes without a character.
    const stack = [id];
    while (stack.length) {
      const n = stack.pop()!;
      if (seen[n] === generation) continue;
      seen[n] = generation;
      const node = nodes[n];
      set.push(n);
      if (node.kind === 'fork') stack.push(node.next, node.alt);
      else if (node.kind === 'loop') stack.push(node.next);
    }
  };
  add(current, 0);
  for (let p = 0; p < path.length && current.length; p++) {
    const c = path.charCodeAt(p);
    if (meter) meter.steps += current.length;
    generation++;
    next.length = 0;
    for (const n of current) {
      const node = nodes[n];
      if (node.kind === 'char' && node.test(c)) add(next, node.next);
      else if (node.kind === 'loop' && node.test(c)) add(next, n);
    }
    [current, next] = [next, current];
  }
  return current.some((n) => nodes[n].kind === 'accept');
}

/**
 * Compiles a glob (already checked with `globProblem`) into a matcher; `nocase` compares
 * case-insensitively.
 *
 * @example
 * compileGlob('src/**\/*.{ts,tsx}')('src/ui/app.tsx') // true
 */
export function compileGlob(glob: string, options: { nocase?: boolean } = {}): GlobMatcher {
  let pattern = options.nocase ? glob.toLowerCase() : glob;
  const negated = pattern.startsWith('!') && !pattern.startsWith('!(');
  if (negated) pattern = pattern.slice(1);
  pattern = pattern.replace(/^(\.\/)+/, '');
  const expanded = expandBraces(pattern);
  const nfas = expanded.map(compileNfa);
  const required = expanded.map(requiredLiterals);
  const match = (path: string, meter?: MatchMeter) => {
    const p = (options.nocase ? path.toLowerCase() : path).replace(/^(\.\/)+/, '');
    return nfas.some((nfa, i) => required[i].every((run) => p.includes(run)) && runNfa(nfa, p, meter)) !== negated;
  };
  return Object.assign(match, { patterns: nfas.length });
}

/**
 * Literal runs every match of a brace-free pattern must contain (`**\/vendor/**` -> `vendor`), so
 * most paths are turned away by a substring check before the NFA runs: priors match every
 * candidate path of every search against ~10 globs. Slashes at a run's ends are dropped (`a/**`
 * also matches `a`); patterns with classes or escapes get no prefilter.
 */
function requiredLiterals(pattern: string): string[] {
  if (/[[\\]/.test(pattern)) return [];
  return pattern
    .split(/[*?]+/)
    .map((run) => run.replace(/^\/+|\/+$/g, ''))
    .filter((run) => run.length >= 2);
}

/**
 * The literal directory prefix of a glob (`src/api/**\/*.ts` -> `src/api`), or '' when the glob
 * starts with a wildcard. Servers that cannot evaluate globs use it to narrow candidates.
 */
export function literalGlobPrefix(glob: string): string {
  const segments = glob.replace(/^(\.\/)+/, '').split('/');
  const literal: string[] = [];
  for (const segment of segments) {
    if (/[*?[\]{}\\!]/.test(segment)) return literal.join('/');
    literal.push(segment);
  }
  return literal.join('/');
}
