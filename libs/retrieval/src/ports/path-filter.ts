import { GLOB_LIMITS, globProblem } from '@sextant/contracts';
import { compileGlob, type GlobMatcher, type MatchMeter } from './glob-matcher';
import { InvalidFilterError } from './index-errors';

export { GLOB_LIMITS };
export { literalGlobPrefix } from './glob-matcher';

export type PathPredicate = (path: string) => boolean;

/**
 * Matching work one path filter may do, in NFA steps (states alive per character), counted
 * rather than timed so a loaded machine or a GC pause cannot fail a legitimate search: a fixed
 * allowance plus, for each distinct path, a few live states per pattern per character.
 * Ordinary globs keep 1-4 states alive and never reach it, however many paths a repository
 * has; a glob built to be slow keeps ~16 alive and is stopped after some tens of ms of
 * matching (the source reports it) instead of holding the event loop.
 */
export const MATCH_BUDGET = { baseSteps: 2_000_000, statesPerChar: 6 } as const;

/** Thrown by a path filter that has used up {@link MATCH_BUDGET}. */
export class GlobBudgetExceededError extends InvalidFilterError {
  constructor(globs: readonly string[]) {
    super(`path globs ${JSON.stringify(globs).slice(0, 200)} need too much matching work for one request; use fewer or simpler include/exclude globs`);
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
const COMPILED = new Map<string, { match: (path: string, meter?: MatchMeter) => boolean; patterns: number }>();
const MAX_COMPILED = 256;

function compileList(globs: readonly unknown[] | undefined, field: string): { match: (path: string, meter?: MatchMeter) => boolean; patterns: number; globs: string[] } | null {
  if (globs === undefined || globs === null) return null;
  if (!Array.isArray(globs)) throw new InvalidFilterError(`${field} must be an array of glob strings`);
  if (globs.length === 0) return null;
  if (globs.length > GLOB_LIMITS.maxGlobs) throw new InvalidFilterError(`${field}: ${globs.length} globs given (max ${GLOB_LIMITS.maxGlobs})`);
  const checked = globs.map((g) => checkGlob(g, field));
  const key = JSON.stringify(checked);
  let compiled = COMPILED.get(key);
  if (!compiled) {
    const matchers: GlobMatcher[] = checked.map((g) => compileGlob(g));
    compiled = { match: (path, meter) => matchers.some((m) => m(path, meter)), patterns: matchers.reduce((n, m) => n + m.patterns, 0) };
    if (COMPILED.size >= MAX_COMPILED) COMPILED.delete(COMPILED.keys().next().value!);
    COMPILED.set(key, compiled);
  }
  return { ...compiled, globs: checked };
}

/**
 * Compiles include/exclude globs into one predicate (null when neither is given), rejecting
 * unsafe globs with `InvalidFilterError`. Each predicate remembers its answers and stops with
 * {@link GlobBudgetExceededError} once it has done {@link MATCH_BUDGET} of matching work:
 * make one per request and share it between that request's sources.
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
  const meter: MatchMeter = { steps: 0 };
  const patterns = (inc?.patterns ?? 0) + (exc?.patterns ?? 0);
  let allowance: number = MATCH_BUDGET.baseSteps;
  return (path: string) => {
    const known = answers.get(path);
    if (known !== undefined) return known;
    allowance += MATCH_BUDGET.statesPerChar * patterns * path.length;
    if (meter.steps > allowance) throw new GlobBudgetExceededError([...(inc?.globs ?? []), ...(exc?.globs ?? [])]);
    const ok = (!inc || inc.match(path, meter)) && (!exc || !exc.match(path, meter));
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
