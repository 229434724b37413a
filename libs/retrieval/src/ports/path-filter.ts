import picomatch from 'picomatch';
import { InvalidFilterError } from './index-errors';

/** Bounds on glob filters: they come from users and agents, so they are untrusted input. */
export const GLOB_LIMITS = { maxGlobs: 20, maxLength: 256, maxWildcards: 16, maxBraceDepth: 2 } as const;

export type PathPredicate = (path: string) => boolean;

/**
 * Checks one untrusted glob against {@link GLOB_LIMITS} (length, wildcards, brace ranges and
 * depth, extglobs) and returns it; throws `InvalidFilterError` naming `field` otherwise.
 */
export function checkGlob(glob: unknown, field: string): string {
  if (typeof glob !== 'string' || glob.length === 0) throw new InvalidFilterError(`${field}: globs must be non-empty strings`);
  if (glob.length > GLOB_LIMITS.maxLength) throw new InvalidFilterError(`${field}: glob longer than ${GLOB_LIMITS.maxLength} characters: "${glob.slice(0, 40)}…"`);
  if (glob.includes('\0')) throw new InvalidFilterError(`${field}: glob contains a NUL character`);
  const wildcards = (glob.match(/[*?]/g) ?? []).length;
  if (wildcards > GLOB_LIMITS.maxWildcards) throw new InvalidFilterError(`${field}: glob "${glob}" has ${wildcards} wildcards (max ${GLOB_LIMITS.maxWildcards})`);
  // Numeric ranges ({1..100000}) and deeply nested braces expand combinatorially.
  if (/\{[^}]*\.\.[^}]*\}/.test(glob)) throw new InvalidFilterError(`${field}: brace ranges ("{a..b}") are not allowed in glob "${glob}"`);
  let depth = 0;
  for (const ch of glob) {
    if (ch === '{') depth++;
    if (ch === '}') depth--;
    if (depth > GLOB_LIMITS.maxBraceDepth) throw new InvalidFilterError(`${field}: glob "${glob}" nests braces deeper than ${GLOB_LIMITS.maxBraceDepth}`);
  }
  // Extglobs like +(a|b)* can backtrack badly; paths never need them.
  if (/[@!+*?]\(/.test(glob)) throw new InvalidFilterError(`${field}: extglob patterns ("+(…)", "@(…)", "!(…)") are not allowed in "${glob}"`);
  return glob;
}

function compileList(globs: readonly unknown[] | undefined, field: string): PathPredicate | null {
  if (globs === undefined || globs === null) return null;
  if (!Array.isArray(globs)) throw new InvalidFilterError(`${field} must be an array of glob strings`);
  if (globs.length === 0) return null;
  if (globs.length > GLOB_LIMITS.maxGlobs) throw new InvalidFilterError(`${field}: ${globs.length} globs given (max ${GLOB_LIMITS.maxGlobs})`);
  const checked = globs.map((g) => checkGlob(g, field));
  try {
    return picomatch(checked, { dot: true, nobrace: false, noextglob: true });
  } catch (e) {
    throw new InvalidFilterError(`${field}: cannot compile globs ${JSON.stringify(checked)}: ${(e as Error).message}`);
  }
}

/**
 * Compiles include/exclude globs into one predicate (null when neither is given), rejecting
 * pathological globs with `InvalidFilterError`.
 *
 * @example
 * const keep = compilePathFilter(['src/**'], ['**\/*.spec.ts']);
 * keep?.('src/a.ts'); // true
 */
export function compilePathFilter(include?: readonly string[], exclude?: readonly string[]): PathPredicate | null {
  const inc = compileList(include, 'include');
  const exc = compileList(exclude, 'exclude');
  if (!inc && !exc) return null;
  return (path: string) => (!inc || inc(path)) && (!exc || !exc(path));
}

/**
 * The literal directory prefix of a glob (`src/api/**\/*.ts` -> `src/api`), or '' when the glob
 * starts with a wildcard. Servers that cannot evaluate globs use it to narrow candidates.
 */
export function literalGlobPrefix(glob: string): string {
  const scan = picomatch.scan(glob);
  if (!scan.isGlob) return glob;
  return scan.base.replace(/\/+$/, '');
}
