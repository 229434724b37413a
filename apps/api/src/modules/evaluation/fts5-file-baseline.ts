import Database from 'better-sqlite3';
import { discoverFiles, readSourceFile } from '@sextant/indexer';
import { tokenize } from '@sextant/retrieval';

/** Options for {@link Fts5FileBaseline.build}. */
export interface Fts5BaselineOptions {
  /** Files over this many bytes are left out, as the indexer does (default 1 MB). */
  maxFileBytes?: number;
}

/**
 * The plain baseline the evaluation compares Sextant against: one SQLite FTS5 row per
 * whole file, ranked by FTS5's own `bm25()` (k1 = 1.2, b = 0.75), in an in-memory
 * database. Files are the ones the indexer would see (same discovery and read rules).
 * Documents and queries are both pre-tokenized with Sextant's shared tokenizer
 * (identifiers whole and split into parts, lower-cased; stop words dropped from queries)
 * and FTS5's `unicode61` tokenizer only splits on the spaces between those tokens, so the
 * baseline and Sextant's keyword sources see the same terms. A query is the OR of its
 * distinct terms (natural-language commit messages rarely match with AND).
 *
 * @example
 * const baseline = await Fts5FileBaseline.build('/work/datasets/koa/corpus');
 * baseline.search('respect ctx.body when status is 204', 50) // ['lib/response.js', ...]
 * baseline.close();
 */
export class Fts5FileBaseline {
  private constructor(
    private readonly db: Database.Database,
    /** How many files were indexed. */
    readonly files: number,
  ) {}

  static async build(corpusDir: string, options: Fts5BaselineOptions = {}): Promise<Fts5FileBaseline> {
    const { maxFileBytes = 1024 * 1024 } = options;
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE files USING fts5(path UNINDEXED, body, tokenize = "unicode61 remove_diacritics 0 tokenchars '_$.'")`);
    const insert = db.prepare('INSERT INTO files (path, body) VALUES (?, ?)');
    const { files } = await discoverFiles(corpusDir, { maxFileBytes });
    let count = 0;
    const rows: Array<[string, string]> = [];
    for (const file of files) {
      const read = await readSourceFile(file, { maxFileBytes });
      if (!read.ok) continue;
      // The path is part of the text: a query naming a file finds it, as in Sextant's symbol/keyword sources.
      rows.push([file.path, tokenize(`${file.path}\n${read.text}`).join(' ')]);
      count += 1;
    }
    db.transaction(() => {
      for (const [path, body] of rows) insert.run(path, body);
    })();
    return new Fts5FileBaseline(db, count);
  }

  /** The top `k` file paths for a query, best first (empty when no term matches). */
  search(query: string, k: number): string[] {
    const terms = [...new Set(tokenize(query, { removeStopWords: true }))];
    if (terms.length === 0) return [];
    const match = terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
    const rows = this.db.prepare('SELECT path FROM files WHERE files MATCH ? ORDER BY bm25(files) LIMIT ?').all(match, k) as Array<{ path: string }>;
    return rows.map((r) => r.path);
  }

  close(): void {
    this.db.close();
  }
}
