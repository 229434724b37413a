import type { EvalQuery, EvalRunFile } from '@sextant/contracts';
import { complementarity, coverageImprovement } from '@sextant/eval';

/** Means of seed 000's fusion metrics over a group of queries. */
export interface OverlapSet {
  queries: number;
  /** Mean per-query complementarity of task_only's and file_only's top-k files. */
  complementarity: number;
  taskOnlyRecall: number;
  fileOnlyRecall: number;
  fusedRecall: number;
  /** Mean (fused hits − best single-source hits) / |relevant|. */
  improvement: number;
}

/** Result of {@link summarizeSourceOverlap}. */
export interface OverlapSummary {
  taskStrategy: string;
  fileStrategy: string;
  fusedStrategy: string;
  k: number;
  overall: OverlapSet;
  byType: Record<string, OverlapSet>;
}

function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length;
}

/**
 * Seed 000's complementarity and coverage improvement, per query on the top-`k` files of
 * the task-only, file-only and fused runs, averaged overall and per query type. Queries
 * without relevant files are skipped (as scoreRun does). Null when the run file lacks one
 * of the three strategies.
 *
 * @example
 * summarizeSourceOverlap({ runFile, queries, fused: 'rrf' })?.overall.improvement // 0.12
 */
export function summarizeSourceOverlap(options: { runFile: EvalRunFile; queries: readonly EvalQuery[]; fused: string; taskOnly?: string; fileOnly?: string; k?: number }): OverlapSummary | null {
  const { runFile, queries, fused, taskOnly = 'task_only', fileOnly = 'file_only', k = 10 } = options;
  const t = runFile.runs[taskOnly];
  const f = runFile.runs[fileOnly];
  const u = runFile.runs[fused];
  if (!t || !f || !u) return null;
  const rows: Array<{ type: string; comp: number; cov: ReturnType<typeof coverageImprovement> }> = [];
  for (const q of queries) {
    if (q.relevant.length === 0) continue;
    const top = (run: Record<string, string[]>) => (run[q.id] ?? []).slice(0, k);
    rows.push({
      type: q.type,
      comp: complementarity(top(t), top(f)),
      cov: coverageImprovement({ taskOnly: top(t), fileOnly: top(f), fused: top(u), relevant: q.relevant }),
    });
  }
  const summarize = (group: typeof rows): OverlapSet => ({
    queries: group.length,
    complementarity: mean(group.map((r) => r.comp)),
    taskOnlyRecall: mean(group.map((r) => r.cov.taskOnlyRecall)),
    fileOnlyRecall: mean(group.map((r) => r.cov.fileOnlyRecall)),
    fusedRecall: mean(group.map((r) => r.cov.fusedRecall)),
    improvement: mean(group.map((r) => r.cov.improvement)),
  });
  const byType: Record<string, OverlapSet> = {};
  for (const type of [...new Set(rows.map((r) => r.type))].sort()) byType[type] = summarize(rows.filter((r) => r.type === type));
  return { taskStrategy: taskOnly, fileStrategy: fileOnly, fusedStrategy: fused, k, overall: summarize(rows), byType };
}

/** The overlap summary as a Markdown section (appended to the evaluation report). */
export function renderOverlapMarkdown(summary: OverlapSummary | null): string {
  if (!summary) return '## Complementarity and coverage\n\nNeeds task_only, file_only and the fused strategy in the run; not computed.\n';
  const f = (n: number) => n.toFixed(3);
  const s = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(3)}`;
  const lines = [
    '## Complementarity and coverage (seed 000)',
    '',
    `Per query on the top ${summary.k} files, then averaged. Complementarity = share of the files found by only one of ${summary.taskStrategy} and ${summary.fileStrategy}; coverage improvement = (${summary.fusedStrategy} hits − best single-source hits) / |relevant|.`,
    '',
    '| queries | n | complementarity | task-only recall | file-only recall | fused recall | improvement |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  const row = (name: string, o: OverlapSet) => `| ${name} | ${o.queries} | ${f(o.complementarity)} | ${f(o.taskOnlyRecall)} | ${f(o.fileOnlyRecall)} | ${f(o.fusedRecall)} | ${s(o.improvement)} |`;
  lines.push(row('all', summary.overall));
  for (const [type, o] of Object.entries(summary.byType)) lines.push(row(type, o));
  return lines.join('\n') + '\n';
}
