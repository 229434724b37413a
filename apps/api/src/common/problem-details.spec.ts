import { BadRequestException, NotFoundException } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { ProblemSchema } from '@sextant/contracts';
import { DomainError, DomainErrorCode } from './domain-error';
import { problemFromError } from './problem-details';

const of = (err: unknown) => problemFromError(err, 'req-1');

describe('problemFromError', () => {
  it('maps each kind of failure to its status and stable code, always with the request id', () => {
    const cases: Array<[unknown, number, string]> = [
      [new DomainError(DomainErrorCode.NotFound, 'Repository x not found', { id: 'x' }), 404, 'not_found'],
      [new DomainError(DomainErrorCode.Conflict, 'already registered'), 409, 'conflict'],
      [new DomainError(DomainErrorCode.PathNotAllowed, 'outside the roots'), 403, 'path_not_allowed'],
      [new DomainError(DomainErrorCode.Unavailable, 'busy'), 503, 'unavailable'],
      [new BadRequestException({ message: 'Invalid request body: role: bad', issues: [{ path: 'role', message: 'bad', code: 'invalid_value' }] }), 400, 'validation_failed'],
      [new NotFoundException('Cannot GET /v1/nothing'), 404, 'not_found'],
      [new ThrottlerException('Rate limit exceeded'), 429, 'rate_limited'],
      [Object.assign(new Error('request entity too large'), { status: 413, type: 'entity.too.large', limit: 1024 }), 413, 'payload_too_large'],
      [Object.assign(new SyntaxError('Unexpected end of JSON input'), { status: 400, type: 'entity.parse.failed' }), 400, 'invalid_json'],
      [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), 503, 'database_unavailable'],
    ];
    for (const [err, status, code] of cases) {
      const { problem } = of(err);
      expect(ProblemSchema.parse(problem)).toMatchObject({ status, code, type: `urn:sextant:problem:${code}`, request_id: 'req-1' });
      expect(problem.title.length).toBeGreaterThan(0);
    }
    expect(of(cases[4][0]).problem.issues).toEqual([{ path: 'role', message: 'bad', code: 'invalid_value' }]);
    expect(of(cases[0][0]).problem).toMatchObject({ detail: 'Repository x not found', id: 'x' });
    expect(of(cases[7][0]).problem.detail).toMatch(/1024-byte limit/);
  });

  it('never shows the message of an unexpected error, and flags it for logging', () => {
    const { problem, unexpected } = of(new TypeError("Cannot read properties of undefined (reading 'secret')"));
    expect(unexpected).toBe(true);
    expect(problem).toMatchObject({ status: 500, code: 'internal_error', detail: 'Internal server error' });
    expect(JSON.stringify(problem)).not.toMatch(/secret/);
  });

  it('keeps the standard members when domain details use the same names', () => {
    const { problem } = of(new DomainError(DomainErrorCode.Forbidden, 'needs admin', { status: 200, code: 'ok', role: 'reader' }));
    expect(problem).toMatchObject({ status: 403, code: 'forbidden', role: 'reader' });
  });
});
