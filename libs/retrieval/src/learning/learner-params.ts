/** Parameters of the online weight learner ({@link updateWeights}); docs/feedback.md explains each. */
export interface LearnerParams {
  /** η: step size of the exponentiated-gradient update per unit of rating. */
  learningRate: number;
  /** φ: least normalised weight any source keeps (must be < 1 / number of sources). */
  floor: number;
  /** λ: fraction of the way back to the prior taken after every applied update. */
  decay: number;
  /** Most rating units (Σ |applied change|) one principal may apply per window. */
  capPerWindow: number;
  /** Length of the cap's sliding window in milliseconds. */
  windowMs: number;
}

/**
 * Defaults, chosen with `sextant eval simulate-feedback` on koa (the tuning repository) and
 * reported untouched on got, httpx and requests (docs/feedback.md).
 */
export const DEFAULT_LEARNER_PARAMS: Readonly<LearnerParams> = {
  learningRate: 0.05,
  floor: 0.02,
  decay: 0.001,
  capPerWindow: 40,
  windowMs: 60 * 60 * 1000,
};
