import { z } from 'zod';
import { RepositoryPathSchema } from './repository-path';
import { NextCursorSchema, pageQueryShape } from './pagination';

const ISO_LIKE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;
/** RFC 2822 and git's default date format: `Mon, 6 May 2019 17:46:38 +0200`, `Mon May 6 17:46:38 2019 +0200`. */
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const NAMED_DAY = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),?\\s+(?:\\d{1,2}\\s+${MONTH}\\s+\\d{4}|${MONTH}\\s+\\d{1,2})\\s.*\\d{2}:\\d{2}`, 'i');

/**
 * A task's date as ISO 8601 in UTC, from the forms histories are exported in: ISO 8601 with or
 * without an offset (no offset reads as UTC), with a space for the `T` and `+0200` for the offset
 * (git's `%ci`), a date alone, RFC 2822 or git's default format, or Unix time (a number or a
 * string of digits: seconds, or milliseconds from 1e11 on). Null when it is none of them.
 */
export function parseTaskDate(value: string | number): string | null {
  if (typeof value === 'number' || /^\d{9,13}(?:\.\d+)?$/.test(value.trim())) {
    const n = Number(value);
    // 1e11 seconds is the year 5138: a number that large is JavaScript's milliseconds.
    const date = new Date(n >= 1e11 ? n : n * 1000);
    return Number.isFinite(n) && n >= 0 && !Number.isNaN(date.getTime()) ? date.toISOString() : null;
  }
  const text = value.trim();
  const iso = ISO_LIKE.exec(text);
  if (iso) {
    const [, y, mo, d, h = '00', mi = '00', sec = '00', frac = '', zone = 'Z'] = iso;
    const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
    const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${sec}${frac.slice(0, 4)}${offset}`);
    // `new Date` rolls 2024-02-30 over to March: the calendar date must survive the round trip.
    const valid = !Number.isNaN(date.getTime()) && Number(mo) >= 1 && Number(mo) <= 12 && Number(d) >= 1 && Number(d) <= new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate();
    return valid ? date.toISOString() : null;
  }
  if (NAMED_DAY.test(text)) {
    const date = new Date(text);
    return Number.isNaN(date.getTime()) ? null : date.toISOString();
  }
  return null;
}

/** `created_at` of an imported task ({@link parseTaskDate}); null means "no date". */
export const TaskDateSchema = z
  .union([z.string(), z.number()])
  .nullable()
  .transform((value, ctx) => {
    if (value === null || value === '') return undefined;
    const iso = parseTaskDate(value);
    if (iso === null) {
      ctx.addIssue({ code: 'custom', message: `not a date: ${JSON.stringify(value).slice(0, 60)} (use ISO 8601, e.g. 2024-03-01T12:00:00Z, or Unix seconds)` });
      return z.NEVER;
    }
    return iso;
  })
  .describe('when the task was created: ISO 8601 (an offset-less time is UTC), git\'s %ci or RFC 2822 date, or Unix seconds; tasks without one count as the oldest, in import order');

/** One task as imported (REST body item, JSONL line per shared/eval/FORMAT.md, CSV row after mapping). */
export const TaskInputSchema = z
  .object({
    id: z.string().trim().min(1).max(200).describe('your id for the task (issue number, ticket key, commit sha)'),
    title: z.string().trim().min(1, 'empty: every task needs a title').max(1000),
    body: z.string().max(100_000).default(''),
    files: z.array(RepositoryPathSchema).max(2000).default([]),
    files_at_cutoff: z.array(RepositoryPathSchema).max(2000).optional(),
    status: z.string().max(32).optional(),
    outcome: z.string().max(10_000).optional(),
    created_at: TaskDateSchema.optional(),
    source: z.string().trim().min(1).max(32).default('manual'),
    repository_id: z.string().uuid().optional(),
  })
  .strict();
export type TaskInput = z.input<typeof TaskInputSchema>;
export type ParsedTaskInput = z.output<typeof TaskInputSchema>;

/** `POST /v1/tasks`: one task, or `{ tasks: [...] }` in bulk (normalised to the bulk form). */
export const CreateTasksRequestSchema = z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) && !('tasks' in v) ? { tasks: [v] } : v),
  z.object({ tasks: z.array(TaskInputSchema).min(1).max(5000) }).strict(),
);

export const TaskSchema = z.object({
  id: z.string(),
  external_id: z.string(),
  source: z.string(),
  title: z.string(),
  body: z.string(),
  files: z.array(z.string()),
  status: z.string().nullable(),
  outcome: z.string().nullable(),
  repository_id: z.string().nullable(),
  created_at: z.string().nullable(),
});
export type Task = z.infer<typeof TaskSchema>;

export const TaskImportResultSchema = z.object({
  imported: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  errors: z.array(z.object({ line: z.number().int().optional(), id: z.string().optional(), message: z.string() })),
  /** Paths the tasks name that the index no longer holds, followed to the file that holds their code today (a move inferred from the history). */
  paths_followed: z.number().int().optional(),
  /** What limited the import without failing it (e.g. a git history whose old file contents are missing). */
  warnings: z.array(z.string()).optional(),
});
export type TaskImportResult = z.infer<typeof TaskImportResultSchema>;

export const ListTasksQuerySchema = z
  .object({
    query: z.string().trim().max(2000).optional(),
    ...pageQueryShape(50, 200),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0).describe('deprecated: use cursor (next_cursor of the previous page)'),
    source: z.string().max(32).optional(),
    /** Only tasks that touched this repository-relative file (newest first; `query` is not combined with it). */
    path: RepositoryPathSchema.optional(),
    /** With `path`: only tasks of this repository (and tasks not tied to one). */
    repository_id: z.string().uuid().optional(),
  })
  .strict();

export const ImportGitRequestSchema = z
  .object({
    repository_id: z.string().uuid(),
    since: z.string().max(64).optional(),
    until: z.string().max(64).optional(),
  })
  .strict();

/** `POST /v1/tasks/import`: a JSONL or CSV file's content (large files: `sextant tasks import`). */
export const ImportTasksFileRequestSchema = z
  .object({
    format: z.enum(['jsonl', 'csv']),
    content: z.string().min(1),
    source: z.string().trim().min(1).max(32).optional(),
    repository_id: z.string().uuid().optional(),
    columns: z
      .object({
        id: z.string().min(1),
        title: z.string().min(1),
        body: z.string().min(1).nullable(),
        files: z.string().min(1).nullable(),
        status: z.string().min(1).nullable(),
        created_at: z.string().min(1).nullable(),
      })
      .partial()
      .strict()
      .optional()
      .describe('CSV column for each field; a field left out reads the column of its own name (id, title, body, files, status, created_at) when the file has one; null leaves an optional field empty'),
  })
  .strict();
export type ImportTasksFileRequest = z.infer<typeof ImportTasksFileRequestSchema>;

export const SimilarTaskSchema = TaskSchema.extend({ score: z.number() });
export type SimilarTask = z.infer<typeof SimilarTaskSchema>;

/** `POST /v1/tasks/import-git` response: the import result and how many commits were skipped as noise (merges, bumps). */
export const TaskGitImportResultSchema = TaskImportResultSchema.extend({ noise: z.number().int() });
export type TaskGitImportResult = z.infer<typeof TaskGitImportResultSchema>;

/**
 * `GET /v1/tasks` response: newest first (or, with `query`, the most similar first, with
 * `score`); `total` counts every match; `next_cursor` fetches the next page (null on the last).
 */
export const TaskListResponseSchema = z.object({ tasks: z.array(z.union([SimilarTaskSchema, TaskSchema])), total: z.number().int(), next_cursor: NextCursorSchema });
export type TaskListResponse = z.infer<typeof TaskListResponseSchema>;
