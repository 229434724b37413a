import type { AuthContext } from '../auth/auth-context';

/**
 * What `rate_result` needs from the Feedback module (`FeedbackService.rate`). Injected by
 * token so the MCP module does not depend on the Feedback module's internals; the token
 * resolves to `null` until that module provides it.
 */
export interface FeedbackRater {
  rate(auth: AuthContext, input: { search_id: string; item_id: string; rating: number }): Promise<unknown>;
}

export const FEEDBACK_RATER = Symbol('FEEDBACK_RATER');
