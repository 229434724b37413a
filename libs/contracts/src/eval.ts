import { z } from 'zod';

/**
 * Evaluation dataset and run-file shapes (shared/eval/FORMAT.md). Field names are the
 * on-disk snake_case ones, so files written by any tool validate unchanged.
 */

/** One line of `tasks.jsonl`: a past task and the files it touched. */
export const EvalTaskSchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  body: z.string().default(''),
  files: z.array(z.string().min(1)),
  /** The task's files renamed forward to their paths at the cutoff; use instead of `files` when present. */
  files_at_cutoff: z.array(z.string().min(1)).optional(),
  created_at: z.string().nullable().optional(),
});
export type EvalTask = z.infer<typeof EvalTaskSchema>;

/** `specific` when the query names an identifier found in the corpus, else `conceptual`; other labels are allowed for hand-made sets. */
export const EvalQueryTypeSchema = z.string().min(1);
export type EvalQueryType = 'specific' | 'conceptual' | (string & {});

/** One line of `queries.jsonl`: a query and the corpus files that answer it. */
export const EvalQuerySchema = z.object({
  id: z.string().min(1),
  query: z.string().min(1),
  relevant: z.array(z.string().min(1)),
  type: EvalQueryTypeSchema,
});
export type EvalQuery = Omit<z.infer<typeof EvalQuerySchema>, 'type'> & { type: EvalQueryType };

/** `meta.json`: where a dataset came from. */
export const EvalDatasetMetaSchema = z.object({
  repo: z.string(),
  cutoff_sha: z.string(),
  cutoff_date: z.string().nullable(),
  counts: z.record(z.string(), z.union([z.number(), z.record(z.string(), z.number())])),
  options: z.record(z.string(), z.unknown()).default({}),
});
export type EvalDatasetMeta = z.infer<typeof EvalDatasetMetaSchema>;

/** A run file: per strategy, per query id, the ranked file list; optional per-query latency in ms. */
export const EvalRunFileSchema = z.object({
  runs: z.record(z.string(), z.record(z.string(), z.array(z.string()))),
  latency_ms: z.record(z.string(), z.record(z.string(), z.number().nonnegative())).optional(),
});
export type EvalRunFile = z.infer<typeof EvalRunFileSchema>;
