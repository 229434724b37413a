/** Parameters of the online weight learner ({@link updateWeights}, {@link pairwiseGradient}); docs/feedback.md explains each. */
export interface LearnerParams {
  /** η: step size of the exponentiated-gradient update (before the step schedule). */
  learningRate: number;
  /** T: temperature of the pair weight λ = 4σ(x)σ(−x), x = (f_j − f_i)/T, on the normalised fused scores f ∈ [0, 1]. */
  temperature: number;
  /** n₀: step schedule η_n = η / √(1 + n/n₀), n = updates applied since the prior was set (0 = constant step). */
  annealRatings: number;
  /** K: the first K results of the search (by fused score) count as shown; an unrated shown result is a neutral (0) rating. */
  pageSize: number;
  /** φ: least normalised weight any source keeps (must be < 1 / number of sources). */
  floor: number;
  /** λ: fraction of the way back to the prior taken after every applied update (scaled by the step schedule). */
  decay: number;
  /** Most rating units (Σ |applied change|) one principal may apply per window. */
  capPerWindow: number;
  /** Length of the cap's sliding window in milliseconds. */
  windowMs: number;
}

/**
 * Defaults, chosen with an offline replica of `sextant eval simulate-feedback` on koa, got,
 * httpx and requests over 12 seeds, then confirmed with the command (docs/feedback.md).
 */
export const DEFAULT_LEARNER_PARAMS: Readonly<LearnerParams> = {
  learningRate: 2.5,
  temperature: 0.2,
  annealRatings: 100,
  pageSize: 10,
  floor: 0.02,
  decay: 0.0003,
  capPerWindow: 40,
  windowMs: 60 * 60 * 1000,
};
