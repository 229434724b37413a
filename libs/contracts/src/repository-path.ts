import { z } from 'zod';

/**
 * A path as the index names files (repository-relative, `/`-separated). Exports, editors and
 * agents write `./src/app.py`, `src\\app.py` or `src//app.py`, which would otherwise match no
 * indexed file. Null for a path that is not inside the repository (absolute, or `..` above its
 * root).
 *
 * @example
 * normaliseRepositoryPath('.\\src\\app.py') // 'src/app.py'
 * normaliseRepositoryPath('/etc/passwd') // null
 */
export function normaliseRepositoryPath(raw: string): string | null {
  const path = raw.trim().replace(/\\/g, '/');
  if (!path || path.includes('\0') || path.startsWith('/') || /^[a-z]:\//i.test(path)) return null;
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment !== '..') segments.push(segment);
    else if (segments.pop() === undefined) return null;
  }
  return segments.length ? segments.join('/') : null;
}

/**
 * One repository path on the wire ({@link normaliseRepositoryPath}): a task's `files`, an eval
 * answer, the file view's and the code graph's `path`. Anything outside the repository is an
 * error that says how to write it.
 */
export const RepositoryPathSchema = z
  .string()
  .min(1)
  .max(4096)
  .transform((raw, ctx) => {
    const path = normaliseRepositoryPath(raw);
    if (path === null) {
      ctx.addIssue({ code: 'custom', message: `not a path inside the repository: ${JSON.stringify(raw).slice(0, 80)} (write it relative to the repository root, e.g. src/app.py)` });
      return z.NEVER;
    }
    return path;
  })
  .describe('repository-relative file path, as search results give it (`./`, `\\` and `a/../b` are read as the index names the file)');
