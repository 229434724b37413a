/** Input of {@link capRatingChange}. */
export interface RatingCapInput {
  /** The rating change the principal asks for (new rating - rating already applied). */
  requested: number;
  /** Σ |applied change| of this principal's ratings within the current window. */
  usedInWindow: number;
  /** Most rating units per window. */
  cap: number;
}

/**
 * The per-principal cap: a principal can move the weights by at most `cap` rating units
 * (Σ |applied change|) per window, so one person or script cannot swing them. Returns the
 * part of `requested` that may be applied now (same sign, possibly 0). What is not applied
 * stays pending: rating the item again later applies the rest.
 *
 * @example
 * capRatingChange({ requested: -2, usedInWindow: 39, cap: 40 }) // -1
 */
export function capRatingChange(input: RatingCapInput): number {
  const { requested, usedInWindow, cap } = input;
  const room = Math.max(0, cap - usedInWindow);
  const allowed = Math.min(Math.abs(requested), room);
  return allowed === 0 ? 0 : Math.sign(requested) * allowed;
}

/** What one rating does to the ledger of a (principal, search, item): see {@link planRatingChange}. */
export interface RatingChangePlan {
  /** new rating - rating already applied. */
  requested: number;
  /** The part of `requested` the cap lets through now. */
  allowed: number;
  /** The rating applied to the weights so far, after this one. */
  appliedAfter: number;
}

/**
 * Plans a (re-)rating: the weights have already learned `applied` from this principal's
 * rating of this item in this search, so only the difference is learned now (capped).
 * Replaying the same rating therefore changes nothing, and replacing +1 by -1 applies -2.
 *
 * @example
 * planRatingChange({ rating: -1, applied: 1, usedInWindow: 0, cap: 40 }) // { requested: -2, allowed: -2, appliedAfter: -1 }
 */
export function planRatingChange(input: { rating: number; applied: number; usedInWindow: number; cap: number }): RatingChangePlan {
  const requested = input.rating - input.applied;
  const allowed = capRatingChange({ requested, usedInWindow: input.usedInWindow, cap: input.cap });
  return { requested, allowed, appliedAfter: input.applied + allowed };
}
