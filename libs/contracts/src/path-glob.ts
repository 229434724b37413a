import { z } from 'zod';

/**
 * Bounds on path globs: they come from users and agents, so they are untrusted input.
 * Every surface (REST, SSE, socket, MCP, CLI) checks them with {@link PathGlobSchema}
 * before a search starts.
 */
export const GLOB_LIMITS = { maxGlobs: 20, maxLength: 256, maxWildcards: 16, maxBraceDepth: 2, maxExpansions: 64 } as const;

/**
 * Expands `{a,b}` alternatives (nested up to the depth {@link globProblem} allows) into plain
 * globs. A brace group without a top-level comma is literal, as in bash and picomatch.
 * Throws when more than `limit` globs would result.
 *
 * @example
 * expandBraces('src/{api,web}/*.{ts,tsx}') // ['src/api/*.ts', 'src/api/*.tsx', 'src/web/*.ts', 'src/web/*.tsx']
 */
export function expandBraces(glob: string, limit: number = GLOB_LIMITS.maxExpansions): string[] {
  const done: string[] = [];
  const pending = [glob];
  while (pending.length) {
    const g = pending.shift()!;
    const group = firstBraceGroup(g);
    if (!group) {
      done.push(g);
      continue;
    }
    for (const alt of group.alternatives) pending.push(g.slice(0, group.start) + alt + g.slice(group.end + 1));
    if (done.length + pending.length > limit) throw new RangeError(`"${glob}" expands to more than ${limit} patterns`);
  }
  return done;
}

function firstBraceGroup(g: string): { start: number; end: number; alternatives: string[] } | null {
  for (let i = 0; i < g.length; i++) {
    if (g[i] === '\\') {
      i++;
      continue;
    }
    if (g[i] !== '{') continue;
    let depth = 0;
    const commas: number[] = [];
    for (let j = i; j < g.length; j++) {
      const ch = g[j];
      if (ch === '\\') {
        j++;
        continue;
      }
      if (ch === '{') depth++;
      else if (ch === '}') {
        depth--;
        if (depth === 0) {
          if (!commas.length) break; // literal braces: look for the next group
          const bounds = [i, ...commas, j];
          return { start: i, end: j, alternatives: bounds.slice(0, -1).map((b, k) => g.slice(b + 1, bounds[k + 1])) };
        }
      } else if (ch === ',' && depth === 1) commas.push(j);
    }
  }
  return null;
}

/**
 * Why an untrusted glob is refused, or null when it is fine: too long, a NUL, too many
 * wildcards, numeric brace ranges, braces nested too deep or expanding to too many patterns,
 * or extglobs (`+(…)`, `@(…)`, `!(…)`), which paths never need.
 *
 * @example
 * globProblem('src/**\/*.ts') // null
 * globProblem('**\/*?*?*?*?*?*?*?*?*?Z') // 'has 20 wildcards (max 16)'
 */
export function globProblem(glob: string): string | null {
  if (glob.length === 0) return 'is empty';
  if (glob.length > GLOB_LIMITS.maxLength) return `is longer than ${GLOB_LIMITS.maxLength} characters`;
  if (glob.includes('\0')) return 'contains a NUL character';
  const wildcards = (glob.match(/[*?]/g) ?? []).length;
  if (wildcards > GLOB_LIMITS.maxWildcards) return `has ${wildcards} wildcards (max ${GLOB_LIMITS.maxWildcards})`;
  if (/\{[^}]*\.\.[^}]*\}/.test(glob)) return 'uses a brace range ("{a..b}"), which is not allowed';
  let depth = 0;
  for (const ch of glob) {
    if (ch === '{') depth++;
    if (ch === '}') depth--;
    if (depth > GLOB_LIMITS.maxBraceDepth) return `nests braces deeper than ${GLOB_LIMITS.maxBraceDepth}`;
  }
  if (/[@!+*?]\(/.test(glob)) return 'uses an extglob ("+(…)", "@(…)", "!(…)"), which is not allowed';
  try {
    expandBraces(glob);
  } catch {
    return `expands to more than ${GLOB_LIMITS.maxExpansions} patterns`;
  }
  return null;
}

/** One include/exclude path glob, refused with a reason at the edge (400) when it is unsafe to run. */
export const PathGlobSchema = z.string().superRefine((glob, ctx) => {
  const problem = globProblem(glob);
  if (problem) ctx.addIssue({ code: 'custom', message: `glob "${glob.length > 60 ? `${glob.slice(0, 60)}…` : glob}" ${problem}` });
});

/** A list of path globs (include or exclude). */
export const PathGlobListSchema = z.array(PathGlobSchema).max(GLOB_LIMITS.maxGlobs, `at most ${GLOB_LIMITS.maxGlobs} globs`);
