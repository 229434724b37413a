import { z } from 'zod';
import { NextCursorSchema, pageQueryShape } from './pagination';
import { RepositoryPathSchema } from './repository-path';
import { TaskDateSchema } from './tasks';

/**
 * Evaluation dataset and run-file shapes (shared/eval/FORMAT.md). Field names are the
 * on-disk snake_case ones, so files written by any tool validate unchanged.
 */

/** One line of `tasks.jsonl`: a past task and the files it touched. */
export const EvalTaskSchema = z.object({
  id: z.union([z.string().min(1), z.number().int()]).transform(String),
  title: z.string(),
  body: z.string().default(''),
  files: z.array(RepositoryPathSchema),
  /** The task's files renamed forward to their paths at the cutoff; use instead of `files` when present. */
  files_at_cutoff: z.array(RepositoryPathSchema).optional(),
  created_at: TaskDateSchema.optional(),
});
export type EvalTask = z.output<typeof EvalTaskSchema>;

/** `specific` when the query names an identifier found in the corpus, else `conceptual`; other labels are allowed for hand-made sets. */
export const EvalQueryTypeSchema = z.string().min(1);
export type EvalQueryType = 'specific' | 'conceptual' | (string & {});

/** One line of `queries.jsonl`: a query and the corpus files that answer it. */
export const EvalQuerySchema = z.object({
  id: z.union([z.string().min(1), z.number().int()]).transform(String),
  query: z.string().min(1),
  relevant: z.array(RepositoryPathSchema),
  /** Optional: a query set made by another tool may not label its queries; they are scored overall. */
  type: EvalQueryTypeSchema.default('unlabelled'),
});
export type EvalQuery = Omit<z.infer<typeof EvalQuerySchema>, 'type'> & { type: EvalQueryType };

/**
 * One line of an issues file for `eval make-dataset --issues`: an issue report and the
 * commits that fixed it (full or abbreviated shas, or refs).
 */
export const EvalIssueSchema = z.object({
  id: z.union([z.string().min(1), z.number().int()]).transform(String),
  title: z.string(),
  body: z.string().default(''),
  fixed_by: z.array(z.string().min(1)).min(1),
});
export type EvalIssue = z.infer<typeof EvalIssueSchema>;

/** `meta.json`: where a dataset came from. */
export const EvalDatasetMetaSchema = z.object({
  repo: z.string(),
  cutoff_sha: z.string(),
  cutoff_date: z.string().nullable(),
  counts: z.record(z.string(), z.union([z.number(), z.record(z.string(), z.number())])),
  options: z.record(z.string(), z.unknown()).default({}),
  /** What limited the dataset without stopping it (e.g. renames followed by exact content only). */
  warnings: z.array(z.string()).optional(),
});
export type EvalDatasetMeta = z.infer<typeof EvalDatasetMetaSchema>;

/** A run file: per strategy, per query id, the ranked file list; optional per-query latency in ms. */
export const EvalRunFileSchema = z.object({
  runs: z.record(z.string(), z.record(z.string(), z.array(z.string()))),
  latency_ms: z.record(z.string(), z.record(z.string(), z.number().nonnegative())).optional(),
});
export type EvalRunFile = z.infer<typeof EvalRunFileSchema>;

// --- published evaluation reports (`sextant eval run --publish`, `GET /v1/eval/reports`) -----

/** One strategy's overall scores in a published report. */
export const EvalReportStrategySchema = z.object({
  name: z.string(),
  queries: z.number().int(),
  p5: z.number(),
  p10: z.number(),
  r5: z.number(),
  r10: z.number(),
  mrr: z.number(),
  ndcg10: z.number(),
  /** Share of queries with every relevant file in the top 1 / top 5 (absent in reports published before they existed). */
  acc1: z.number().optional(),
  acc5: z.number().optional(),
  /** R@10 minus the baseline's over the same queries, and the paired t-test's p-value (null for the baseline itself). */
  r10_delta: z.number().nullable(),
  r10_p_value: z.number().nullable(),
  latency_p50_ms: z.number().nullable(),
});
export type EvalReportStrategy = z.infer<typeof EvalReportStrategySchema>;

/** A published evaluation report without its chart (lists). */
export const EvalReportSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  /** The evaluated repository (as `meta.json` names it), or null for hand-made sets. */
  repo: z.string().nullable(),
  cutoff_date: z.string().nullable(),
  queries: z.number().int(),
  /** The strategy the significance tests compare against (task_only), when it ran. */
  baseline: z.string().nullable(),
  /** The product's default strategy, highlighted by the dashboard. */
  default_strategy: z.string(),
  strategies: z.array(EvalReportStrategySchema),
  published_by: z.string(),
  created_at: z.string(),
});
export type EvalReportSummary = z.infer<typeof EvalReportSummarySchema>;

/** A published report with its overall-metrics bar chart (SVG, as `eval run --report` writes it). */
export const EvalReportSchema = EvalReportSummarySchema.extend({ chart_svg: z.string() });
export type EvalReport = z.infer<typeof EvalReportSchema>;

/** `GET /v1/eval/reports`: newest first, 20 a page by default. */
// Not strict: the route took no query before paging, so parameters it ignored must stay harmless.
export const ListEvalReportsQuerySchema = z.object({ ...pageQueryShape(20, 100) });
export type ListEvalReportsQuery = z.infer<typeof ListEvalReportsQuerySchema>;

export const EvalReportListResponseSchema = z.object({ reports: z.array(EvalReportSummarySchema), next_cursor: NextCursorSchema });
export type EvalReportListResponse = z.infer<typeof EvalReportListResponseSchema>;
