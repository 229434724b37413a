import Database from 'better-sqlite3';
import { discoverFiles, readSourceFile } from '@sextant/indexer';
import { tokenize } from '@sextant/retrieval';

/**
 * How a baseline turns text into FTS5 terms:
 * - `shared`: documents and queries pre-tokenized with Sextant's shared tokenizer (identifiers
 *   whole and split into parts, lower-cased; stop words dropped from queries; a file's path is
 *   part of its text), so the baseline sees the terms Sextant's keyword sources see. The
 *   stricter bar, and the one `bm25_rrf` uses.
 * - `unicode61`: FTS5's own default tokenizer over the raw text (letters and digits, case and
 *   diacritics folded; `parseHttpResponse` stays one term, `parse_http` becomes two); every word
 *   of the query; the path is not searched. The baseline taken literally (`bm25_rrf_raw`).
 */
export type BaselineTokenizer = 'shared' | 'unicode61';

/** The FTS5 `tokenize` option of a baseline table. */
export function baselineTableTokenizer(tokenizer: BaselineTokenizer): string {
  return tokenizer === 'shared' ? `"unicode61 remove_diacritics 0 tokenchars '_$.'"` : `'unicode61'`;
}

/** A row's indexed text. */
export function baselineDocument(text: string, tokenizer: BaselineTokenizer): string {
  return tokenizer === 'shared' ? tokenize(text).join(' ') : text;
}

/**
 * The FTS5 MATCH expression for a query: the OR of its distinct terms, each quoted (natural
 * language rarely matches with AND); null when the query has no term.
 *
 * @example
 * baselineMatch('Fix parseHttpResponse', 'shared') // '"fix" OR "parsehttpresponse" OR "parse" OR "http" OR "response"'
 * baselineMatch('Fix parseHttpResponse', 'unicode61') // '"fix" OR "parsehttpresponse"'
 */
export function baselineMatch(query: string, tokenizer: BaselineTokenizer): string | null {
  const words = tokenizer === 'shared' ? tokenize(query, { removeStopWords: true }) : (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const terms = [...new Set(words)];
  return terms.length ? terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ') : null;
}

/** A corpus file as the baselines index it. */
export interface BaselineFile {
  path: string;
  text: string;
}

/**
 * The files the indexer would see under `corpusDir` (same discovery and read rules), read once
 * so both baselines can be built from them.
 */
export async function readBaselineCorpus(corpusDir: string, maxFileBytes = 1024 * 1024): Promise<BaselineFile[]> {
  const { files } = await discoverFiles(corpusDir, { maxFileBytes });
  const out: BaselineFile[] = [];
  for (const file of files) {
    const read = await readSourceFile(file, { maxFileBytes });
    if (read.ok) out.push({ path: file.path, text: read.text });
  }
  return out;
}

/** Options for {@link Fts5FileBaseline.build}. */
export interface Fts5BaselineOptions {
  /** Files over this many bytes are left out, as the indexer does (default 1 MB). */
  maxFileBytes?: number;
  /** Default `shared`. */
  tokenizer?: BaselineTokenizer;
}

/**
 * The plain baseline the evaluation compares Sextant against: one SQLite FTS5 row per
 * whole file, ranked by FTS5's own `bm25()` (k1 = 1.2, b = 0.75), in an in-memory
 * database. Files are the ones the indexer would see (same discovery and read rules); terms
 * come from the {@link BaselineTokenizer}.
 *
 * @example
 * const baseline = await Fts5FileBaseline.build('/work/datasets/koa/corpus');
 * baseline.search('respect ctx.body when status is 204', 50) // ['lib/response.js', ...]
 * baseline.close();
 */
export class Fts5FileBaseline {
  private constructor(
    private readonly db: Database.Database,
    private readonly tokenizer: BaselineTokenizer,
    /** How many files were indexed. */
    readonly files: number,
  ) {}

  /** Indexes `corpus`: a directory, or its files already read ({@link readBaselineCorpus}). */
  static async build(corpus: string | readonly BaselineFile[], options: Fts5BaselineOptions = {}): Promise<Fts5FileBaseline> {
    const { maxFileBytes = 1024 * 1024, tokenizer = 'shared' } = options;
    const files = typeof corpus === 'string' ? await readBaselineCorpus(corpus, maxFileBytes) : corpus;
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE files USING fts5(path UNINDEXED, body, tokenize = ${baselineTableTokenizer(tokenizer)})`);
    const insert = db.prepare('INSERT INTO files (path, body) VALUES (?, ?)');
    db.transaction(() => {
      // With the shared tokenizer the path is part of the text: a query naming a file finds it, as in Sextant's symbol/keyword sources.
      for (const f of files) insert.run(f.path, baselineDocument(tokenizer === 'shared' ? `${f.path}\n${f.text}` : f.text, tokenizer));
    })();
    return new Fts5FileBaseline(db, tokenizer, files.length);
  }

  /** The top `k` file paths for a query, best first (empty when no term matches). */
  search(query: string, k: number): string[] {
    const match = baselineMatch(query, this.tokenizer);
    if (!match) return [];
    const rows = this.db.prepare('SELECT path FROM files WHERE files MATCH ? ORDER BY bm25(files) LIMIT ?').all(match, k) as Array<{ path: string }>;
    return rows.map((r) => r.path);
  }

  close(): void {
    this.db.close();
  }
}
