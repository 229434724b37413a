import Database from 'better-sqlite3';
import { fuseReciprocalRank } from '@sextant/retrieval';
import { Fts5FileBaseline, baselineDocument, baselineMatch, baselineTableTokenizer, type BaselineFile, type BaselineTokenizer } from './fts5-file-baseline';

/** A past task as the baseline sees it: its text and the files it touched. */
export interface BaselineTask {
  title: string;
  body: string;
  files: readonly string[];
}

/** Ranked file lists of the baseline and of each of its two legs, for one query. */
export interface BaselineRanking {
  /** RRF (k = 60) of the two legs below. */
  fused: string[];
  /** Whole-file FTS5 BM25. */
  files: string[];
  /** FTS5 BM25 over task title + body -> the files of the matched tasks, in order of first appearance. */
  tasks: string[];
}

/** Candidates each leg contributes before fusion. */
export const BASELINE_DEPTH = 100;
/** The RRF rank constant. */
export const BASELINE_RRF_K = 60;

/**
 * The plain "50-line" baseline the product must beat: SQLite FTS5 BM25 over whole files,
 * FTS5 BM25 over past tasks' title + body (each matched task contributes the files it
 * touched, in order of first appearance), the two lists fused with reciprocal rank fusion
 * (k = 60), each leg {@link BASELINE_DEPTH} deep. Both legs read terms the same way (a
 * {@link BaselineTokenizer}: Sextant's shared tokenizer by default) and match the OR of the
 * query's distinct terms, like {@link Fts5FileBaseline}.
 *
 * @example
 * const baseline = await Bm25RrfBaseline.build(corpusDir, tasks);
 * baseline.search('respect ctx.body when status is 204', 10).fused // ['lib/response.js', ...]
 * baseline.close();
 */
export class Bm25RrfBaseline {
  private constructor(
    private readonly fileLeg: Fts5FileBaseline,
    private readonly db: Database.Database,
    private readonly tokenizer: BaselineTokenizer,
    private readonly taskFiles: ReadonlyArray<readonly string[]>,
  ) {}

  /** How many files the whole-file leg indexed. */
  get files(): number {
    return this.fileLeg.files;
  }

  /** `corpus` is a directory, or its files already read (`readBaselineCorpus`). */
  static async build(corpus: string | readonly BaselineFile[], tasks: readonly BaselineTask[], tokenizer: BaselineTokenizer = 'shared'): Promise<Bm25RrfBaseline> {
    const fileLeg = await Fts5FileBaseline.build(corpus, { tokenizer });
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE tasks USING fts5(body, tokenize = ${baselineTableTokenizer(tokenizer)})`);
    const insert = db.prepare('INSERT INTO tasks (rowid, body) VALUES (?, ?)');
    db.transaction(() => {
      tasks.forEach((t, i) => insert.run(i + 1, baselineDocument(`${t.title}\n${t.body}`, tokenizer)));
    })();
    return new Bm25RrfBaseline(fileLeg, db, tokenizer, tasks.map((t) => t.files));
  }

  /** The baseline's ranking for a query, cut to `k` files per list. */
  search(query: string, k: number): BaselineRanking {
    const files = this.fileLeg.search(query, BASELINE_DEPTH);
    const tasks = this.taskLeg(query);
    const fused = fuseReciprocalRank(
      [
        { source: 'files', items: files.map((id, i) => ({ id, score: files.length - i })) },
        { source: 'tasks', items: tasks.map((id, i) => ({ id, score: tasks.length - i })) },
      ],
      { k: BASELINE_RRF_K },
    ).map((f) => f.id);
    return { fused: fused.slice(0, k), files: files.slice(0, k), tasks: tasks.slice(0, k) };
  }

  close(): void {
    this.fileLeg.close();
    this.db.close();
  }

  private taskLeg(query: string): string[] {
    const match = baselineMatch(query, this.tokenizer);
    if (!match) return [];
    const rows = this.db.prepare('SELECT rowid FROM tasks WHERE tasks MATCH ? ORDER BY bm25(tasks) LIMIT ?').all(match, BASELINE_DEPTH) as Array<{ rowid: number }>;
    const out = new Set<string>();
    for (const r of rows) {
      for (const f of this.taskFiles[r.rowid - 1]) {
        out.add(f);
        if (out.size >= BASELINE_DEPTH) return [...out];
      }
    }
    return [...out];
  }
}
