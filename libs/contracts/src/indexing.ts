import { z } from 'zod';
import { NextCursorSchema, pageQueryShape } from './pagination';

const RepoName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._\-/ ]+$/, 'may contain letters, digits, spaces and . _ - /');

/** `POST /v1/repos`: exactly one of `path` (local, under SEXTANT_ALLOWED_ROOTS) or `git_url`. */
export const RegisterRepositoryRequestSchema = z
  .object({
    path: z.string().min(1).max(4096).optional(),
    git_url: z.string().min(1).max(2048).optional(),
    name: RepoName.optional(),
    watch: z.boolean().optional(),
    index: z.boolean().optional().describe('start indexing right away (default true)'),
  })
  .strict()
  .refine((v) => Boolean(v.path) !== Boolean(v.git_url), { message: 'give exactly one of "path" or "git_url"' });
export type RegisterRepositoryRequest = z.infer<typeof RegisterRepositoryRequestSchema>;

export const IndexJobKindSchema = z.enum(['full', 'incremental']);
export type IndexJobKind = z.infer<typeof IndexJobKindSchema>;

export const StartIndexRequestSchema = z.object({ kind: IndexJobKindSchema.default('incremental') }).strict();
export type StartIndexRequest = z.infer<typeof StartIndexRequestSchema>;

export const IndexPhaseSchema = z.enum(['discover', 'parse', 'embed', 'write', 'done']);
export type IndexPhase = z.infer<typeof IndexPhaseSchema>;

export const IndexJobStatusSchema = z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']);
export type IndexJobStatus = z.infer<typeof IndexJobStatusSchema>;

export const IndexJobCountsSchema = z.object({
  discovered: z.number().int(),
  toIndex: z.number().int(),
  unchanged: z.number().int(),
  removed: z.number().int(),
  processed: z.number().int(),
  indexed: z.number().int(),
  failed: z.number().int(),
  parseFallbacks: z.number().int(),
  chunks: z.number().int(),
  embedded: z.number().int(),
  cacheHits: z.number().int(),
  skippedByReason: z.record(z.string(), z.number().int()),
  chunksByType: z.record(z.string(), z.number().int()),
  /** Wall time per phase in ms, so a slow job says where its time went: discover, parse (waiting for the parse pool), embed, write. */
  phaseMs: z.record(z.string(), z.number()).optional(),
});
export type IndexJobCounts = z.infer<typeof IndexJobCountsSchema>;

export const IndexJobSchema = z.object({
  id: z.string(),
  repository_id: z.string(),
  kind: IndexJobKindSchema,
  status: IndexJobStatusSchema,
  phase: IndexPhaseSchema,
  counts: IndexJobCountsSchema,
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
  /** files per second over the job so far */
  rate: z.number(),
  eta_s: z.number().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  resumed: z.boolean(),
});
export type IndexJob = z.infer<typeof IndexJobSchema>;

export const RepositorySchema = z.object({
  id: z.string(),
  name: z.string(),
  root_path: z.string(),
  git_url: z.string().nullable(),
  watch: z.boolean(),
  last_indexed_commit: z.string().nullable(),
  last_indexed_at: z.string().nullable(),
  created_at: z.string(),
});
export type Repository = z.infer<typeof RepositorySchema>;

export const RepositoryDetailSchema = RepositorySchema.extend({
  files: z.object({ total: z.number(), by_language: z.record(z.string(), z.number()), by_state: z.record(z.string(), z.number()) }),
  chunks: z.object({ total: z.number(), by_type: z.record(z.string(), z.number()), by_language: z.record(z.string(), z.number()) }),
  last_job: IndexJobSchema.nullable(),
});
export type RepositoryDetail = z.infer<typeof RepositoryDetailSchema>;

/** Payload of the internal `index.progress` / `index.done` / `index.error` events (and of the socket events). */
export const IndexProgressEventSchema = z.object({
  workspace_id: z.string(),
  repository_id: z.string(),
  job: IndexJobSchema,
});
export type IndexProgressEvent = z.infer<typeof IndexProgressEventSchema>;

/** `PATCH /v1/repos/:id`: settings of a registered repository. */
export const UpdateRepositoryRequestSchema = z.object({ watch: z.boolean() }).strict();
export type UpdateRepositoryRequest = z.infer<typeof UpdateRepositoryRequestSchema>;

/** `GET /v1/jobs`: newest first, a page at a time; pass `next_cursor` back as `cursor` for the next page. */
export const ListJobsQuerySchema = z
  .object({
    ...pageQueryShape(50, 200),
    repository_id: z.string().uuid().optional(),
  })
  .strict();
export type ListJobsQuery = z.infer<typeof ListJobsQuerySchema>;

export const IndexJobListResponseSchema = z.object({ jobs: z.array(IndexJobSchema), next_cursor: NextCursorSchema });
export type IndexJobListResponse = z.infer<typeof IndexJobListResponseSchema>;

/** `GET /v1/repos`: oldest first, a page at a time (default 100, enough for the dashboard to get all at once). */
// Not strict: the route took no query before paging, so parameters it ignored must stay harmless.
export const ListRepositoriesQuerySchema = z.object({ ...pageQueryShape(100, 500) });
export type ListRepositoriesQuery = z.infer<typeof ListRepositoriesQuerySchema>;

export const RepositoryListResponseSchema = z.object({ repositories: z.array(RepositorySchema), next_cursor: NextCursorSchema });
export type RepositoryListResponse = z.infer<typeof RepositoryListResponseSchema>;

/** `POST /v1/repos` response: the repository and the index job it started (null with `index: false`). */
export const RegisterRepositoryResponseSchema = RepositorySchema.extend({ job: IndexJobSchema.nullable() });
export type RegisterRepositoryResponse = z.infer<typeof RegisterRepositoryResponseSchema>;
