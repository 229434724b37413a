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
   * Evidence in [0, 1] per source that took part in the rated search (0 for a source that
   * answered but did not rank the item). Sources missing here did not answer that search
   * (timed out, disabled): they keep their weight.
   */
  evidence: Readonly<Record<string, number>>;
  /** Signed change of rating to apply: new rating - rating already applied (in [-2, 2]). */
  delta: number;
  params?: Partial<Pick<LearnerParams, 'learningRate' | 'floor' | 'decay'>>;
}

/** Result of {@link updateWeights}. */
export interface WeightUpdate {
  /** New fusion weights (same total as the input weights). */
  weights: Record<string, number>;
  /** The learner's state after the update (sums to 1, every entry >= floor). */
  normalised: Record<string, number>;
  /** False when the rating carried no information (delta 0, or every participating source equally sure): nothing moved, not even decay. */
  changed: boolean;
}

/**
 * One online update of the fusion weights from one rating — exponentiated gradient
 * (Hedge) on the normalised weights, with decay toward the prior and a floor:
 *
 * ```
 * p      = w / Σw                                  (sources = keys of weights ∪ prior)
 * q_s    = p_s · exp(η · δ · g_s)                  for s in P (sources in the search's pool)
 * q_s   *= Σ_{P} p / Σ_{P} q                       (participants' total mass is kept; others untouched)
 * q      = (1 - λ) · q + λ · π,   π = prior / Σprior
 * p'     = floor_φ(q)                             (clamp to φ, rescale the rest to sum 1)
 * w'     = p' · Σw                                 (the fusion scale is kept; ranking ignores scale)
 * ```
 *
 * `g_s` is the source's evidence for the item (its own normalised score, see
 * `assignCredit`) and `δ` the change of rating. Using evidence rather than the share of
 * the fused score keeps the step independent of the current weight: with shares, heavy
 * sources would gain just for being heavy and a floored source could never recover.
 * Without floor and decay, updates multiply, so a rating followed by its withdrawal
 * (δ then -δ) restores the weights exactly.
 *
 * @example
 * updateWeights({ weights: { 'file.dense': 1, 'task.dense': 1 }, prior: { 'file.dense': 1, 'task.dense': 1 },
 *   evidence: { 'file.dense': 1, 'task.dense': 0 }, delta: 1 }).weights // { 'file.dense': 1.0249…, 'task.dense': 0.9750… }
 */
export function updateWeights(input: WeightUpdateInput): WeightUpdate {
  const { weights, prior, evidence, delta } = input;
  const { learningRate, floor, decay } = { ...DEFAULT_LEARNER_PARAMS, ...input.params };
  if (!Number.isFinite(delta)) throw new RangeError(`Rating change must be a finite number, got ${delta}`);
  const sources: SourceName[] = [...new Set([...Object.keys(weights), ...Object.keys(prior)])].sort();
  const total = sources.reduce((s, k) => s + Math.max(0, weights[k] ?? 1), 0) || sources.length;
  const p = normaliseWeights(weights, sources);
  const participants = sources.filter((s) => evidence[s] !== undefined);
  const gs = participants.map((s) => clamp01(evidence[s]));
  const informative = delta !== 0 && gs.some((g) => g !== gs[0]);
  if (!informative) return { weights: Object.fromEntries(sources.map((k) => [k, weights[k] ?? 1])), normalised: p, changed: false };

  const q: Record<string, number> = { ...p };
  let before = 0;
  let after = 0;
  participants.forEach((s, i) => {
    before += p[s];
    q[s] = p[s] * Math.exp(learningRate * delta * gs[i]);
    after += q[s];
  });
  for (const s of participants) q[s] *= before / after;
  const pi = normaliseWeights(prior, sources);
  for (const s of sources) q[s] = (1 - decay) * q[s] + decay * pi[s];
  const normalised = applyFloor(q, floor);
  return { weights: scale(normalised, total), normalised, changed: true };
}

function scale(p: Readonly<Record<string, number>>, total: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(p)) out[k] = v * total;
  return out;
}

const clamp01 = (v: number) => (Number.isFinite(v) ? (v < 0 ? 0 : v > 1 ? 1 : v) : 0);
