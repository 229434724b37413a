/** Why an embedding operation failed; transports map these codes to their own error shapes. */
export type EmbeddingErrorCode =
  | 'config'
  | 'dimension_mismatch'
  | 'bad_request'
  | 'unauthorized'
  | 'rate_limited'
  | 'server_error'
  | 'timeout'
  | 'network'
  | 'bad_response'
  | 'aborted';

/**
 * A domain error from an embedder or the embedding cache, with a code and a message that
 * names what was wrong (provider, model, URL, HTTP status, attempts).
 */
export class EmbeddingError extends Error {
  override readonly name: string = 'EmbeddingError';

  constructor(
    readonly code: EmbeddingErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
