import { sourceLabel, type NumberedSource } from './answer-context';

/**
 * `[1]`, `[2, 3]`, `[4][5]` — but not `items[1]` or `m[0][1]` (indexing in quoted code):
 * a marker counts only when no identifier character or closing bracket comes right before it.
 */
const CITATION = /(?<![\w\])])((?:\[\d{1,3}(?:\s*,\s*\d{1,3})*\])+)/g;
// Inside `code spans` and ``` fences the brackets are code, not citations.
const CODE = /```[\s\S]*?(?:```|$)|`[^`\n]*`/g;

/** Every cited source number in the order of first citation (duplicates dropped). */
export function extractCitationNumbers(answer: string): number[] {
  const prose = answer.replace(CODE, (m) => ' '.repeat(m.length));
  const seen = new Set<number>();
  for (const m of prose.matchAll(CITATION)) {
    for (const part of m[1].match(/\d+/g) ?? []) {
      const n = Number(part);
      if (n >= 1) seen.add(n);
    }
  }
  return [...seen];
}

/** A citation as clients receive it: what `[n]` points at (1-based lines). */
export type MappedCitation =
  | { n: number; kind: 'file'; chunk_id: string; repo_id: string; repo_name: string | null; path: string; start_line: number; end_line: number; label: string }
  | { n: number; kind: 'task'; task_id: string; title: string; label: string };

export function toCitation(s: NumberedSource): MappedCitation {
  return s.kind === 'file'
    ? { n: s.n, kind: 'file', chunk_id: s.chunkId, repo_id: s.repoId, repo_name: s.repoName, path: s.path, start_line: s.startLine + 1, end_line: s.endLine + 1, label: sourceLabel(s) }
    : { n: s.n, kind: 'task', task_id: s.taskId, title: s.title, label: sourceLabel(s) };
}

/**
 * Maps the answer's `[n]` markers to the sources the model was given. Numbers that match
 * no source are returned apart (`unknown`), so a made-up reference is visible, not linked.
 *
 * @example
 * mapCitations('Sessions refresh in SessionStore [2].', (n) => ctx.get(n)) // { citations: [{ n: 2, kind: 'file', … }], unknown: [] }
 */
export function mapCitations(answer: string, sourceOf: (n: number) => NumberedSource | undefined): { citations: MappedCitation[]; unknown: number[] } {
  const citations: MappedCitation[] = [];
  const unknown: number[] = [];
  for (const n of extractCitationNumbers(answer)) {
    const s = sourceOf(n);
    if (s) citations.push(toCitation(s));
    else unknown.push(n);
  }
  return { citations, unknown };
}

/**
 * Follows a streamed answer and reports each source the first time it is cited, as soon
 * as its marker is complete (a `[1` split across tokens is reported when `]` arrives).
 */
export class CitationStream {
  private text = '';
  private readonly reported = new Set<number>();

  constructor(private readonly sourceOf: (n: number) => NumberedSource | undefined) {}

  /** Appends a token; returns the citations completed by it that were not reported before. */
  push(token: string): MappedCitation[] {
    this.text += token;
    const fresh: MappedCitation[] = [];
    for (const n of extractCitationNumbers(this.text)) {
      if (this.reported.has(n)) continue;
      const s = this.sourceOf(n);
      if (!s) continue;
      this.reported.add(n);
      fresh.push(toCitation(s));
    }
    return fresh;
  }
}
