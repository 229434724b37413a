import { DomainError, DomainErrorCode } from '../../common/domain-error';

/**
 * The token of an `Authorization: Bearer <token>` header; undefined when there is no
 * header. Any other scheme is refused rather than ignored, so a misconfigured client
 * hears about it instead of silently acting as someone else.
 */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(value ?? '');
  if (!match) throw new DomainError(DomainErrorCode.Unauthenticated, 'Malformed Authorization header: expected "Bearer <api key>"');
  return match[1];
}
