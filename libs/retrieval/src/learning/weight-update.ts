import type { SourceName, SourceWeights } from '../fusion/fusion.types';
import { DEFAULT_LEARNER_PARAMS, type LearnerParams } from './learner-params';
import { applyFloor, normaliseWeights } from './normalise-weights';

/** Input of {@link updateWeights}. */
export interface WeightUpdateInput {
  /** Current fusion weights of the workspace and query class. */
  weights: SourceWeights;
  /** What decay pulls toward (the defaults, or the weights a person last set). */
  prior: SourceWeights;
  /**
   * The step's direction per source that took part in the rated search (`ratingGradient`).
   * Sources missing here did not answer that search (timed out, disabled): they keep their weight.
   */
  gradient: Readonly<Record<string, number>>;
  /** η and λ for this step (already scaled by {@link scheduledStep}), φ. */
  params?: Partial<Pick<LearnerParams, 'learningRate' | 'floor' | 'decay'>>;
}

/** Result of {@link updateWeights}. */
export interface WeightUpdate {
  /** New fusion weights (same total as the input weights). */
  weights: Record<string, number>;
  /** The learner's state after the update (sums to 1, every entry >= floor). */
  normalised: Record<string, number>;
  /** False when the step carried no information (every participant's gradient equal, e.g. all 0): nothing moved, not even decay. */
  changed: boolean;
}

/**
 * One online update of the fusion weights — exponentiated gradient (Hedge) on the
 * normalised weights, with decay toward the prior and a floor:
 *
 * ```
 * p      = w / Σw                                  (sources = keys of weights ∪ prior)
 * q_s    = p_s · exp(η · G_s)                      for s in P (sources in the search's pool)
 * q_s   *= Σ_{P} p / Σ_{P} q                       (participants' total mass is kept; others untouched)
 * q      = (1 - λ) · q + λ · π,   π = prior / Σprior
 * p'     = floor_φ(q)                             (clamp to φ, rescale the rest to sum 1)
 * w'     = p' · Σw                                 (the fusion scale is kept; ranking ignores scale)
 * ```
 *
 * `G` is the rating's pairwise gradient (`ratingGradient`). Adding the same constant to
 * every participant's G changes nothing, so a step whose entries are all equal is no
 * step: nothing moves, not even decay. Without floor and decay, updates multiply, so a
 * step followed by its opposite restores the weights exactly.
 *
 * @example
 * updateWeights({ weights: { 'file.dense': 1, 'task.dense': 1 }, prior: { 'file.dense': 1, 'task.dense': 1 },
 *   gradient: { 'file.dense': 0, 'task.dense': 1 }, params: { learningRate: 0.1, floor: 0, decay: 0 } }).weights // { 'file.dense': 0.9500…, 'task.dense': 1.0499… }
 */
export function updateWeights(input: WeightUpdateInput): WeightUpdate {
  const { weights, prior, gradient } = input;
  const { learningRate, floor, decay } = { ...DEFAULT_LEARNER_PARAMS, ...input.params };
  const sources: SourceName[] = [...new Set([...Object.keys(weights), ...Object.keys(prior)])].sort();
  const total = sources.reduce((s, k) => s + Math.max(0, weights[k] ?? 1), 0) || sources.length;
  const p = normaliseWeights(weights, sources);
  const participants = sources.filter((s) => gradient[s] !== undefined);
  const gs = participants.map((s) => {
    const g = gradient[s];
    if (!Number.isFinite(g)) throw new RangeError(`Gradient of ${s} must be a finite number, got ${g}`);
    return g;
  });
  const informative = learningRate !== 0 && gs.some((g) => Math.abs(g - gs[0]) > 1e-12);
  if (!informative) return { weights: Object.fromEntries(sources.map((k) => [k, weights[k] ?? 1])), normalised: p, changed: false };

  const q: Record<string, number> = { ...p };
  let before = 0;
  let after = 0;
  participants.forEach((s, i) => {
    before += p[s];
    q[s] = p[s] * Math.exp(learningRate * gs[i]);
    after += q[s];
  });
  for (const s of participants) q[s] *= before / after;
  const pi = normaliseWeights(prior, sources);
  for (const s of sources) q[s] = (1 - decay) * q[s] + decay * pi[s];
  const normalised = applyFloor(q, floor);
  return { weights: scale(normalised, total), normalised, changed: true };
}

/**
 * The step schedule: after n applied updates since the prior was set, η_n = η / √(1 + n/n₀)
 * and λ_n = λ · η_n/η (decay shrinks with the step, so where the weights settle does not
 * depend on n). Early ratings move the weights fast (recovering from bad weights); later
 * ones average out rating noise instead of letting the weights random-walk.
 *
 * @example
 * scheduledStep(300, { learningRate: 1.5, decay: 0.001, annealRatings: 100 }) // { learningRate: 0.75, decay: 0.0005 }
 */
export function scheduledStep(applied: number, params: Pick<LearnerParams, 'learningRate' | 'decay' | 'annealRatings'>): { learningRate: number; decay: number } {
  const factor = params.annealRatings > 0 ? 1 / Math.sqrt(1 + Math.max(0, applied) / params.annealRatings) : 1;
  return { learningRate: params.learningRate * factor, decay: params.decay * factor };
}

function scale(p: Readonly<Record<string, number>>, total: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(p)) out[k] = v * total;
  return out;
}
