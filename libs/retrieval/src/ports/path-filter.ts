import { GLOB_LIMITS, globProblem } from '@sextant/contracts';
import { compileGlob, type GlobMatcher } from './glob-matcher';
import { InvalidFilterError } from './index-errors';

export { GLOB_LIMITS };
export { literalGlobPrefix } from './glob-matcher';

export type PathPredicate = (path: string) => boolean;

/**
 * Most matching time one path filter may use. Matching is linear, but a request may still
 * combine many globs with many paths; past this it fails (the source reports it) rather
 * than keep the event loop from other requests.
 */
export const MATCH_BUDGET_MS = 100;

/** Thrown by a path filter that has used up {@link MATCH_BUDGET_MS}. */
export class GlobBudgetExceededError extends InvalidFilterError {
  constructor(globs: readonly string[]) {
    super(`path globs ${JSON.stringify(globs).slice(0, 200)} used more than ${MATCH_BUDGET_MS} ms of matching; use fewer or simpler include/exclude globs`);
    this.name = 'GlobBudgetExceededError';
  }
}

/**
 * Checks one untrusted glob against {@link GLOB_LIMITS} (`globProblem`: length, wildcards,
 * brace ranges, depth and expansions, extglobs) and returns it; throws `InvalidFilterError`
 * naming `field` otherwise.
 */
export function checkGlob(glob: unknown, field: string): string {
  if (typeof glob !== 'string' || glob.length === 0) throw new InvalidFilterError(`${field}: globs must be non-empty strings`);
  const problem = globProblem(glob);
  if (problem) throw new InvalidFilterError(`${field}: glob "${glob.slice(0, 60)}" ${problem}`);
  return glob;
}

/** Compiled glob lists, shared by every request that uses the same globs. */
const COMPILED = new Map<string, GlobMatcher>();
const MAX_COMPILED = 256;

function compileList(globs: readonly unknown[] | undefined, field: string): { match: GlobMatcher; globs: string[] } | null {
  if (globs === undefined || globs === null) return null;
  if (!Array.isArray(globs)) throw new InvalidFilterError(`${field} must be an array of glob strings`);
  if (globs.length === 0) return null;
  if (globs.length > GLOB_LIMITS.maxGlobs) throw new InvalidFilterError(`${field}: ${globs.length} globs given (max ${GLOB_LIMITS.maxGlobs})`);
  const checked = globs.map((g) => checkGlob(g, field));
  const key = JSON.stringify(checked);
  let match = COMPILED.get(key);
  if (!match) {
    const matchers = checked.map((g) => compileGlob(g));
    match = (path: string) => matchers.some((m) => m(path));
    if (COMPILED.size >= MAX_COMPILED) COMPILED.delete(COMPILED.keys().next().value!);
    COMPILED.set(key, match);
  }
  return { match, globs: checked };
}

/**
 * Compiles include/exclude globs into one predicate (null when neither is given), rejecting
 * unsafe globs with `InvalidFilterError`. Each predicate remembers its answers and stops with
 * {@link GlobBudgetExceededError} once it has spent {@link MATCH_BUDGET_MS} matching: make one
 * per request and share it between that request's sources.
 *
 * @example
 * const keep = compilePathFilter(['src/**'], ['**\/*.spec.ts']);
 * keep?.('src/a.ts'); // true
 */
export function compilePathFilter(include?: readonly string[], exclude?: readonly string[]): PathPredicate | null {
  const inc = compileList(include, 'include');
  const exc = compileList(exclude, 'exclude');
  if (!inc && !exc) return null;
  const answers = new Map<string, boolean>();
  let spentMs = 0;
  return (path: string) => {
    const known = answers.get(path);
    if (known !== undefined) return known;
    if (spentMs > MATCH_BUDGET_MS) throw new GlobBudgetExceededError([...(inc?.globs ?? []), ...(exc?.globs ?? [])]);
    const started = performance.now();
    const ok = (!inc || inc.match(path)) && (!exc || !exc.match(path));
    spentMs += performance.now() - started;
    answers.set(path, ok);
    return ok;
  };
}

const PER_FILTER = new WeakMap<object, PathPredicate | null>();

/**
 * The path predicate of a filter object, compiled on first use and then shared by everything
 * that sees the same object during a request (one memo, one matching budget).
 *
 * @example
 * pathPredicateFor(filter)?.(row.path) ?? true
 */
export function pathPredicateFor(filter: { include?: readonly string[]; exclude?: readonly string[] }): PathPredicate | null {
  if (PER_FILTER.has(filter)) return PER_FILTER.get(filter)!;
  const predicate = compilePathFilter(filter.include, filter.exclude);
  PER_FILTER.set(filter, predicate);
  return predicate;
}
