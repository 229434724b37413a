import { z } from 'zod';
import { NextCursorSchema, pageQueryShape } from './pagination';

/** One task as imported (REST body item, JSONL line per shared/eval/FORMAT.md, CSV row after mapping). */
export const TaskInputSchema = z
  .object({
    id: z.string().trim().min(1).max(200).describe('your id for the task (issue number, ticket key, commit sha)'),
    title: z.string().trim().min(1).max(1000),
    body: z.string().max(100_000).default(''),
    files: z.array(z.string().min(1).max(1024)).max(2000).default([]),
    files_at_cutoff: z.array(z.string().min(1).max(1024)).max(2000).optional(),
    status: z.string().max(32).optional(),
    outcome: z.string().max(10_000).optional(),
    created_at: z.string().datetime({ offset: true }).optional().or(z.string().date().optional()),
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
    path: z.string().min(1).max(4096).optional(),
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
      .object({ id: z.string(), title: z.string(), body: z.string().optional(), files: z.string().optional(), status: z.string().optional(), created_at: z.string().optional() })
      .strict()
      .optional()
      .describe('CSV column mapping (default: id,title,body,files,status,created_at)'),
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
