import { z } from 'zod';

/**
 * Stable error codes of the API. Clients branch on `code`, never on `title` or `detail`.
 * Codes of the domain (not_found, conflict, forbidden, unauthenticated, invalid_input,
 * path_not_allowed, unavailable) pass through unchanged; the rest name what HTTP refused.
 */
export const PROBLEM_CODES = [
  'validation_failed',
  'invalid_json',
  'invalid_input',
  'unauthenticated',
  'forbidden',
  'path_not_allowed',
  'not_found',
  'method_not_allowed',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'database_unavailable',
  'unavailable',
  'internal_error',
] as const;
export const ProblemCodeSchema = z.enum(PROBLEM_CODES);
export type ProblemCode = z.infer<typeof ProblemCodeSchema>;

/** One field a request got wrong (`path` is dotted, `(root)` for the whole body). */
export const ProblemIssueSchema = z.object({
  path: z.string(),
  message: z.string(),
  code: z.string(),
});
export type ProblemIssue = z.infer<typeof ProblemIssueSchema>;

/**
 * RFC 9457 problem details (`application/problem+json`): the one error body of every REST
 * route, of `/mcp` refusals that happen before JSON-RPC, of SSE errors before the stream
 * starts, and the payload of SSE `error` events; socket.io `search:error` carries the same fields.
 *
 * @example
 * { "type": "urn:sextant:problem:not_found", "title": "Not found", "status": 404,
 *   "detail": "Repository 9b… not found", "code": "not_found", "request_id": "4f0c…" }
 */
export const ProblemSchema = z
  .object({
    type: z.string().describe('URI naming the problem type: urn:sextant:problem:<code>'),
    title: z.string().describe('short summary of the problem type'),
    status: z.number().int().describe('the HTTP status code'),
    detail: z.string().describe('what went wrong with this request, and what to do about it'),
    code: z.string().describe(`stable, snake_case: ${PROBLEM_CODES.join(', ')}`),
    request_id: z.string().nullable().describe('the X-Request-Id of the request (quote it when reporting a problem)'),
    issues: z.array(ProblemIssueSchema).optional().describe('validation_failed: each field that failed'),
  })
  .catchall(z.unknown());
export type Problem = z.infer<typeof ProblemSchema>;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const TITLES: Record<ProblemCode, string> = {
  validation_failed: 'Validation failed',
  invalid_json: 'Malformed JSON body',
  invalid_input: 'Invalid input',
  unauthenticated: 'Authentication required',
  forbidden: 'Forbidden',
  path_not_allowed: 'Path not allowed',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  conflict: 'Conflict',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  rate_limited: 'Too many requests',
  database_unavailable: 'Database unavailable',
  unavailable: 'Service unavailable',
  internal_error: 'Internal server error',
};

/**
 * Builds a problem body; `extra` adds extension members (never overriding the standard ones).
 *
 * @example
 * problem(404, 'not_found', 'Repository 9b… not found', requestId)
 */
export function problem(status: number, code: string, detail: string, requestId: string | null, extra: Record<string, unknown> = {}): Problem {
  const base = { type: `urn:sextant:problem:${code}`, title: TITLES[code as ProblemCode] ?? code.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()), status, detail, code, request_id: requestId };
  return { ...extra, ...base };
}
