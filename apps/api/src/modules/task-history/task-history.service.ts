import { Inject, Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { TaskInputSchema, type ParsedTaskInput, type SimilarTask, type Task, type TaskImportResult } from '@sextant/contracts';
import type { CachedEmbedder } from '@sextant/embeddings';
import { isNoiseCommit, mergePullRequests, readCommitHistory, redactSecrets, renameForward, pathsAtHead, inferRenames } from '@sextant/indexer';
import { MAX_SEARCH_K, TASK_INDEX, type KeywordMode, type TaskIndex, type TaskPoint } from '@sextant/retrieval';
import { parse as parseCsv } from 'csv-parse/sync';
import { DomainError, DomainErrorCode, notFound } from '../../common/domain-error';
import { EMBEDDER } from '../../storage/storage.module';
import { FilesRepository } from '../indexing/repositories/files.repository';
import { RepositoriesRepository } from '../indexing/repositories/repositories.repository';
import type { TaskEntity } from './task.entity';
import { TasksRepository, type TaskWrite } from './tasks.repository';

/** Emitted after tasks change, so search caches for the workspace are dropped. */
export const TASKS_CHANGED = 'tasks.changed';

export const mapTask = (r: TaskEntity): Task => ({
  id: r.id,
  external_id: r.externalId,
  source: r.source,
  title: r.title,
  body: r.body,
  files: r.files,
  status: r.status,
  outcome: r.outcome,
  repository_id: r.repositoryId,
  created_at: r.taskCreatedAt?.toISOString() ?? null,
});

/** The text a task is searched by: its title (twice: titles say what the work was), body and touched paths. */
export function taskSearchText(t: { title: string; body: string; files: string[] }): string {
  return `${t.title}\n${t.title}\n${t.body}\n${t.files.join('\n')}`;
}

/**
 * The CSV columns a user named for each field. A field left out reads the column of its own
 * name (`id`, `title`, `body`, `files`, `status`, `created_at`) when the file has one; `id` and
 * `title` must be there.
 */
/** The column of each field; left out, the column of the field's own name; null, none (an optional field left empty). */
export interface CsvColumnMapping {
  id?: string;
  title?: string;
  body?: string | null;
  files?: string | null;
  status?: string | null;
  created_at?: string | null;
  /** Separator inside the files column (default: whitespace, comma, semicolon or |). */
  filesSeparator?: string;
}

const CSV_FIELDS = ['id', 'title', 'body', 'files', 'status', 'created_at'] as const;

/**
 * Task history: stores tasks relationally and indexes them (dense + BM25) in the
 * TaskIndex, so a query finds similar past work and, through it, the files that work touched.
 */
@Injectable()
export class TaskHistoryService {
  constructor(
    private readonly tasks: TasksRepository,
    private readonly repos: RepositoriesRepository,
    private readonly files: FilesRepository,
    @Inject(TASK_INDEX) private readonly index: TaskIndex,
    @Inject(EMBEDDER) private readonly embedder: CachedEmbedder,
    private readonly events: EventEmitter2,
  ) {}

  /** Validates, upserts by (source, id) and indexes tasks; one bad task is reported, never fatal. */
  async importTasks(workspaceId: string, inputs: unknown[], defaults: { source?: string; repositoryId?: string } = {}): Promise<TaskImportResult> {
    const result: TaskImportResult = { imported: 0, updated: 0, skipped: 0, errors: [] };
    const valid: ParsedTaskInput[] = [];
    const firstLine = new Map<string, number>();
    inputs.forEach((raw, i) => {
      const withDefaults = raw && typeof raw === 'object' ? { ...(defaults.source ? { source: defaults.source } : {}), ...(defaults.repositoryId ? { repository_id: defaults.repositoryId } : {}), ...raw } : raw;
      const parsed = TaskInputSchema.safeParse(withDefaults);
      if (parsed.success) {
        // One upsert per task: a second copy in the same import would collide with the first.
        const key = `${parsed.data.source}\0${parsed.data.id}`;
        const first = firstLine.get(key);
        if (first !== undefined) {
          result.skipped++;
          result.errors.push({ line: i + 1, id: parsed.data.id, message: `duplicate id "${parsed.data.id}" earlier in this import; this copy was skipped` });
          return;
        }
        firstLine.set(key, i + 1);
        valid.push(parsed.data);
      } else {
        result.skipped++;
        result.errors.push({ line: i + 1, id: (raw as { id?: string })?.id, message: parsed.error.issues.map((x) => `${x.path.join('.') || '(task)'}: ${x.message}`).join('; ') });
      }
    });
    const repoIds = [...new Set(valid.map((t) => t.repository_id).filter((x): x is string => Boolean(x)))];
    for (const id of repoIds) if (!(await this.repos.findById(workspaceId, id))) throw notFound('Repository', id);
    const moved = await this.inferMoves(workspaceId, valid);
    if (moved.size) result.paths_followed = moved.size;

    for (let i = 0; i < valid.length; i += 500) {
      const batch = valid.slice(i, i + 500);
      const writes: TaskWrite[] = batch.map((t) => ({
        externalId: t.id,
        source: t.source,
        // Tasks are indexed and shown like code: tokens pasted into an issue or a commit message go too.
        title: redactSecrets(t.title).text,
        body: t.body === undefined ? t.body : redactSecrets(t.body).text,
        files: [...new Set(renameForward(t.files_at_cutoff ?? t.files, moved))],
        status: t.status ?? null,
        outcome: t.outcome ?? null,
        taskCreatedAt: t.created_at ? new Date(t.created_at) : null,
        repositoryId: t.repository_id ?? null,
      }));
      const { rows, created } = await this.tasks.upsertMany(workspaceId, writes);
      result.imported += created;
      result.updated += rows.length - created;
      await this.indexTasks(rows);
    }
    if (valid.length) this.events.emit(TASKS_CHANGED, { workspaceId });
    return result;
  }

  /**
   * Where the files these tasks name but the index no longer holds went (`inferRenames`), so
   * a history recorded before a move still counts for today's files. Git imports arrive
   * with their renames followed already; this is for histories from elsewhere. Nothing is
   * inferred before the workspace has indexed files.
   */
  private async inferMoves(workspaceId: string, tasks: ParsedTaskInput[]): Promise<Map<string, string>> {
    if (!tasks.some((t) => t.files.length)) return new Map();
    const existing = new Set((await this.files.listIndexed(workspaceId, { historyOnly: true })).map((f) => f.path));
    const time = (t: ParsedTaskInput) => (t.created_at ? Date.parse(t.created_at) : Number.NEGATIVE_INFINITY);
    const ordered = tasks.map((t, i) => ({ t, i })).sort((a, b) => time(a.t) - time(b.t) || a.i - b.i);
    return inferRenames(ordered.map(({ t }) => ({ files: t.files_at_cutoff ?? t.files })), existing);
  }

  /** JSONL, one task object per line (README, "Task history"); bad lines are reported with their line number. */
  async importJsonl(workspaceId: string, text: string, defaults: { source?: string; repositoryId?: string } = {}): Promise<TaskImportResult> {
    if (text.trimStart().startsWith('[')) {
      throw new DomainError(
        DomainErrorCode.InvalidInput,
        `This is a JSON array; task import takes JSONL, one task object per line (README, "Task history"). Convert it with: jq -c '.[]' tasks.json > tasks.jsonl`,
      );
    }
    const items: unknown[] = [];
    const parseErrors: TaskImportResult['errors'] = [];
    const lineOf: number[] = [];
    // Editors on Windows save UTF-8 with a byte-order mark, which JSON.parse refuses.
    text.replace(/^\uFEFF/, '').split(/\r?\n/).forEach((line, i) => {
      if (!line.trim()) return;
      try {
        items.push(JSON.parse(line));
        lineOf.push(i + 1);
      } catch (err) {
        parseErrors.push({ line: i + 1, message: `invalid JSON: ${(err as Error).message}` });
      }
    });
    const result = await this.importTasks(workspaceId, items, defaults);
    for (const e of result.errors) if (e.line !== undefined) e.line = lineOf[e.line - 1];
    result.errors.unshift(...parseErrors);
    result.skipped += parseErrors.length;
    return result;
  }

  /** CSV with a header row; `mapping` names the columns holding each field. */
  async importCsv(workspaceId: string, text: string, mapping: CsvColumnMapping, defaults: { source?: string; repositoryId?: string } = {}): Promise<TaskImportResult> {
    let records: Array<Record<string, string>>;
    try {
      records = parseCsv(text, { columns: true, skip_empty_lines: true, trim: true, relax_column_count: true, bom: true });
    } catch (err) {
      throw new DomainError(DomainErrorCode.InvalidInput, `Invalid CSV: ${(err as Error).message}`);
    }
    const header = records.length ? Object.keys(records[0]) : [];
    const column: Partial<Record<(typeof CSV_FIELDS)[number], string>> = {};
    for (const field of CSV_FIELDS) {
      const named = mapping[field];
      if (named === null) continue;
      if (named && records.length && !header.includes(named)) {
        throw new DomainError(DomainErrorCode.InvalidInput, `CSV has no column "${named}" (for ${field}); columns are: ${header.join(', ')}`);
      }
      if (named) column[field] = named;
      else if (header.includes(field)) column[field] = field;
    }
    for (const field of ['id', 'title'] as const) {
      if (!column[field] && records.length) {
        throw new DomainError(DomainErrorCode.InvalidInput, `CSV has no "${field}" column; name the column that holds it (columns are: ${header.join(', ')})`);
      }
    }
    const split = mapping.filesSeparator ? (s: string) => s.split(mapping.filesSeparator!) : (s: string) => s.split(/[\s,;|]+/);
    const items = records.map((r) => ({
      id: r[column.id!],
      title: r[column.title!],
      ...(column.body ? { body: r[column.body] ?? '' } : {}),
      files: column.files ? split(r[column.files] ?? '').map((f) => f.trim()).filter(Boolean) : [],
      ...(column.status && r[column.status] ? { status: r[column.status] } : {}),
      ...(column.created_at && r[column.created_at] ? { created_at: r[column.created_at] } : {}),
    }));
    const result = await this.importTasks(workspaceId, items, defaults);
    for (const e of result.errors) if (e.line !== undefined) e.line += 1; // header row
    return result;
  }

  /**
   * Git history as tasks: each non-merge commit (or merged pull request) with its message
   * and changed files; bots, version bumps and lockfile-only commits skipped; renames
   * followed so paths point at today's files, and a file split out of another one (a git
   * copy) counted in the changes made to that file before the split.
   */
  async importGit(workspaceId: string, repositoryId: string, range: { since?: string; until?: string } = {}): Promise<TaskImportResult & { noise: number }> {
    const repo = await this.repos.findById(workspaceId, repositoryId);
    if (!repo) throw notFound('Repository', repositoryId);
    let all;
    const warnings: string[] = [];
    try {
      all = await readCommitHistory(repo.rootPath, { onWarning: (m) => warnings.push(m) });
    } catch (err) {
      throw new DomainError(DomainErrorCode.InvalidInput, `Cannot read git history of ${repo.rootPath}: ${(err as Error).message}`);
    }
    const atHead = pathsAtHead(all);
    const inRange = all.filter((c) => (!range.since || c.date >= range.since) && (!range.until || c.date <= range.until));
    const noise = inRange.filter((c) => c.parents.length < 2 && isNoiseCommit(c)).length;
    const historyTasks = mergePullRequests(inRange.filter((c) => c.parents.length > 1 || !isNoiseCommit(c)));
    const existing = new Set((await this.files.list(workspaceId, repositoryId)).map((f) => f.path));
    const items = historyTasks.map((t) => {
      const deleted = new Set(t.files.filter((f) => f.status === 'D').map((f) => f.path));
      const touched = new Set(t.commits.flatMap((sha) => atHead.get(sha) ?? []).filter((p) => !deleted.has(p)));
      const files = [...touched].filter((p) => existing.size === 0 || existing.has(p));
      return { id: t.pullRequest ? `pr-${t.pullRequest}` : t.id, title: t.title.slice(0, 1000) || '(no message)', body: t.body.slice(0, 100_000), files, created_at: t.date, source: 'git', status: 'done' };
    });
    const result = await this.importTasks(workspaceId, items, { repositoryId });
    return { ...result, noise, ...(warnings.length ? { warnings } : {}) };
  }

  async list(workspaceId: string, options: { limit: number; offset: number; source?: string; path?: string; repository_id?: string }): Promise<{ tasks: Task[]; total: number }> {
    const [rows, total] = await this.tasks.list(workspaceId, { limit: options.limit, offset: options.offset, source: options.source, path: options.path, repositoryId: options.repository_id });
    return { tasks: rows.map(mapTask), total };
  }

  async get(workspaceId: string, id: string): Promise<Task> {
    const row = await this.tasks.findOne(workspaceId, id);
    if (!row) throw notFound('Task', id);
    return mapTask(row);
  }

  /**
   * Similar past tasks by dense similarity or BM25 keywords. With `fromIndex`, tasks are
   * built from the index payload (title, files, dates) without reading the table — what the
   * search hot path uses; bodies and outcomes are then empty.
   */
  async findSimilarTasks(
    workspaceId: string,
    query: string,
    options: {
      k?: number;
      via?: 'dense' | 'keyword';
      mode?: KeywordMode;
      queryVector?: Float32Array;
      signal?: AbortSignal;
      fromIndex?: boolean;
      /** Row ids of tasks to leave out (those after a past point of the history); that many more are fetched so k remain after the cut. */
      hidden?: Pick<ReadonlySet<string>, 'has' | 'size'>;
    } = {},
  ): Promise<SimilarTask[]> {
    const k = options.k ?? 20;
    const filter = { workspaceId };
    const hidden = options.hidden?.size ? options.hidden : null;
    // Past the index's limit, the hidden tasks (the newest) may take some of the k places; the rest still answer.
    const fetchK = hidden ? Math.min(k + hidden.size, MAX_SEARCH_K) : k;
    let hits =
      options.via === 'keyword'
        ? await this.index.searchKeyword(query, filter, fetchK, { mode: options.mode ?? 'or' })
        : await this.index.searchDense(options.queryVector ?? (await this.embedder.embedQuery(query, options.signal)), filter, fetchK);
    if (hidden) hits = hits.filter((h) => !hidden.has(h.id)).slice(0, k);
    if (options.fromIndex) {
      return hits.map((h) => ({
        id: h.id,
        external_id: h.payload.taskId,
        source: h.payload.source,
        title: h.payload.title,
        body: '',
        files: h.payload.files,
        status: h.payload.status,
        outcome: null,
        repository_id: h.payload.repoId ?? null,
        created_at: h.payload.createdAt,
        score: h.score,
      }));
    }
    const rows = new Map((await this.tasks.findByIds(workspaceId, hits.map((h) => h.id))).map((r) => [r.id, r]));
    return hits.filter((h) => rows.has(h.id)).map((h) => ({ ...mapTask(rows.get(h.id)!), score: h.score }));
  }

  private async indexTasks(rows: TaskEntity[]): Promise<void> {
    if (!rows.length) return;
    const texts = rows.map((r) => taskSearchText(r));
    const vectors = await this.embedder.embedChunks(texts.map((text) => ({ text })));
    const points: TaskPoint[] = rows.map((r, i) => ({
      id: r.id,
      vector: vectors[i],
      text: texts[i],
      payload: {
        workspaceId: r.workspaceId,
        taskId: r.externalId,
        title: r.title,
        files: r.files,
        status: r.status,
        source: r.source,
        createdAt: r.taskCreatedAt?.toISOString() ?? null,
        ...(r.repositoryId ? { repoId: r.repositoryId } : {}),
      },
    }));
    await this.index.upsert(points);
  }
}
