/** `repo://<repository>/<path>#L<a>-L<b>` with 1-based lines (chunk bounds are 0-based, as in seed 004). */
export function chunkUrl(repository: string | null, path: string, startLine: number, endLine: number): string {
  return `repo://${repository ?? 'unknown'}/${path}#L${startLine + 1}-L${endLine + 1}`;
}

/** `path: lines a-b` with 1-based lines. */
export function chunkTitle(path: string, startLine: number, endLine: number): string {
  return `${path}: lines ${startLine + 1}-${endLine + 1}`;
}

const LANGUAGE_ALIASES: Record<string, string> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  pyi: 'python',
  golang: 'go',
  rs: 'rust',
  md: 'markdown',
  mdx: 'markdown',
};

/** Language names or extension aliases (`py`, `.ts`) -> the names the index stores. */
export function normaliseLanguages(langs: readonly string[] | undefined): string[] | undefined {
  if (!langs?.length) return undefined;
  return [...new Set(langs.map((l) => l.trim().toLowerCase().replace(/^\./, '')).map((l) => LANGUAGE_ALIASES[l] ?? l))];
}

/** Extensions (`.py`, `ts`) -> include globs (`**\/*.py`). */
export function extensionGlobs(fileTypes: readonly string[] | undefined): string[] | undefined {
  if (!fileTypes?.length) return undefined;
  return [...new Set(fileTypes.map((t) => `**/*.${t.trim().replace(/^\./, '')}`))];
}

/** The first `n` lines of a text, with `…` when more follow. */
export function firstLines(text: string, n: number): string {
  const lines = text.split('\n');
  return lines.length > n ? `${lines.slice(0, n).join('\n')}\n…` : text;
}

export const round = (v: number, digits = 4) => Math.round(v * 10 ** digits) / 10 ** digits;

/** Drops keys whose value is undefined (zod `.strict()` schemas and JSON output stay tidy). */
export function compact<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
