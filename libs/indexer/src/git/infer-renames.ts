import { lowerBound } from '@sextant/retrieval';

/** Extensions that may change in a move: scripts converted to TypeScript, docs given a markup extension (`CHANGES` -> `CHANGES.rst`). */
const EXTENSION_FAMILIES: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts']),
  new Set(['', '.md', '.rst', '.txt', '.markdown']),
];
const TEST_DIR = /(^|\/)(tests?|testsuite|testing|__tests__|specs?)\//i;
const TEST_NAME = /^test_|_test$|\.(test|spec)$/i;

/**
 * Infers, from a task history alone, where files that no longer exist went: the old-path ->
 * today's-path map for histories that arrive without git's rename records (a `tasks.jsonl`
 * written by another tool, an issue tracker's linked files). Without it every change made
 * before a move (`jinja2/x.py` -> `src/jinja2/x.py`) counts for a file that is gone, and the
 * file that holds that code today looks as if it had no past.
 *
 * A missing path P is followed to an existing path Q only when the move is unambiguous:
 * - Q has P's file name; failing that, the same name up to case, a leading underscore, a test
 *   prefix or suffix and an extension of the same family (`click/types.py` -> `click/_types.py`,
 *   `pkg/testsuite/urls.py` -> `tests/test_urls.py`, `CHANGES` -> `CHANGES.rst`, `a.js` -> `a.ts`),
 *   with tests only ever followed to tests;
 * - P was named before Q first was, and P and Q did not both change while both existed (a few
 *   changes are allowed: a maintenance branch merged after the move still names P), so two
 *   files that lived side by side are never merged;
 * - among such Q, the one sharing the most trailing directory names with P wins, then the one
 *   born closest to P's last change; a tie at both leaves P unmapped.
 *
 * @param history tasks oldest first, each with the paths it touched as recorded then
 * @param existing the paths that exist today
 * @example
 * inferRenames([{ files: ['jinja2/utils.py'] }, { files: ['src/jinja2/utils.py'] }], new Set(['src/jinja2/utils.py']))
 * // Map { 'jinja2/utils.py' => 'src/jinja2/utils.py' }
 */
export function inferRenames(history: ReadonlyArray<{ files: readonly string[] }>, existing: ReadonlySet<string>): Map<string, string> {
  const changes = new Map<string, number[]>();
  history.forEach((task, position) => {
    for (const path of task.files) {
      const list = changes.get(path);
      if (!list) changes.set(path, [position]);
      else if (list[list.length - 1] !== position) list.push(position);
    }
  });
  const out = new Map<string, string>();
  if (!existing.size) return out;

  const byName = new Map<string, string[]>();
  const byKey = new Map<string, string[]>();
  for (const path of existing) {
    push(byName, baseName(path), path);
    push(byKey, looseKey(path), path);
  }

  for (const [missing, positions] of changes) {
    if (existing.has(missing)) continue;
    const test = isTest(missing);
    const sameName = (byName.get(baseName(missing)) ?? []).filter((q) => isTest(q) === test);
    const candidates = sameName.length ? sameName : (byKey.get(looseKey(missing)) ?? []).filter((q) => isTest(q) === test && sameFamily(missing, q));
    const last = positions[positions.length - 1];
    // Maintenance branches merged after the move still name the old path for a while; files
    // that lived side by side both change often in the time they share.
    const allowedOverlap = Math.max(3, Math.floor(positions.length / 10));
    let best: string | undefined;
    let bestShared = -1;
    let bestGap = Infinity;
    let tied = false;
    for (const candidate of candidates) {
      const own = changes.get(candidate);
      const born = own ? own[0] : Infinity;
      // A move leaves its old path behind: a path first named after the new file already
      // changed (a typo, a look-alike in another tool's record) is not an old name of it.
      if (positions[0] > born) continue;
      if (born < last) {
        const oldAfterBirth = positions.length - lowerBound(positions, born);
        const newBeforeDeath = lowerBound(own!, last + 1);
        if (Math.min(oldAfterBirth, newBeforeDeath) > allowedOverlap) continue;
      }
      const shared = sharedTrailingDirs(missing, candidate);
      const gap = Math.abs(born - last);
      if (shared > bestShared || (shared === bestShared && gap < bestGap)) {
        best = candidate;
        bestShared = shared;
        bestGap = gap;
        tied = false;
      } else if (shared === bestShared && gap === bestGap) {
        tied = true;
      }
    }
    if (best !== undefined && !tied) out.set(missing, best);
  }
  return out;
}

function isTest(path: string): boolean {
  return TEST_DIR.test(path) || TEST_NAME.test(stemOf(baseName(path)));
}

/** The file name without extension, case, leading underscores or test affixes. */
function looseKey(path: string): string {
  return stemOf(baseName(path))
    .toLowerCase()
    .replace(/^test_|_test$|\.(test|spec)$/, '')
    .replace(/^_+/, '');
}

function sameFamily(a: string, b: string): boolean {
  const x = extensionOf(baseName(a));
  const y = extensionOf(baseName(b));
  return x === y || EXTENSION_FAMILIES.some((family) => family.has(x) && family.has(y));
}

function stemOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** How many directory names the two paths share, counted from the file upwards. */
function sharedTrailingDirs(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  let shared = 0;
  for (let i = x.length - 2, j = y.length - 2; i >= 0 && j >= 0 && x[i] === y[j]; i--, j--) shared++;
  return shared;
}
