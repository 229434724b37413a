/**
 * Seed 000's complementarity score: the fraction of all retrieved files that only one of
 * the two sources found, `(|T \ F| + |F \ T|) / |T ∪ F|`. 1 = the sources never agree
 * (fully complementary), 0 = they return the same files (redundant); 0 when both are empty.
 *
 * @example
 * complementarity(['a', 'b'], ['b', 'c']) // 2/3
 */
export function complementarity(taskFiles: Iterable<string>, fileFiles: Iterable<string>): number {
  const t = new Set(taskFiles);
  const f = new Set(fileFiles);
  const union = new Set([...t, ...f]);
  if (union.size === 0) return 0;
  let onlyOne = 0;
  for (const x of union) if (t.has(x) !== f.has(x)) onlyOne += 1;
  return onlyOne / union.size;
}

/** Result of {@link coverageImprovement}. */
export interface CoverageImprovement {
  taskOnlyRecall: number;
  fileOnlyRecall: number;
  fusedRecall: number;
  /** (fused hits - best single-source hits) / |relevant|; negative when fusion lost files. */
  improvement: number;
}

/**
 * Seed 000's coverage improvement: recall of each source's file set and of the fused set,
 * and how much the fused set beats the better single source, as a fraction of the
 * relevant files. All zeros when nothing is relevant.
 *
 * @example
 * coverageImprovement({ taskOnly: ['a'], fileOnly: ['b'], fused: ['a', 'b'], relevant: ['a', 'b', 'c'] }).improvement // 1/3
 */
export function coverageImprovement(sets: { taskOnly: Iterable<string>; fileOnly: Iterable<string>; fused: Iterable<string>; relevant: Iterable<string> }): CoverageImprovement {
  const relevant = new Set(sets.relevant);
  if (relevant.size === 0) return { taskOnlyRecall: 0, fileOnlyRecall: 0, fusedRecall: 0, improvement: 0 };
  const hits = (files: Iterable<string>) => [...new Set(files)].filter((f) => relevant.has(f)).length;
  const t = hits(sets.taskOnly);
  const f = hits(sets.fileOnly);
  const fused = hits(sets.fused);
  return { taskOnlyRecall: t / relevant.size, fileOnlyRecall: f / relevant.size, fusedRecall: fused / relevant.size, improvement: (fused - Math.max(t, f)) / relevant.size };
}
