import * as fc from 'fast-check';
import { apiKeyMatches, generateApiKey, hashApiKey, parseApiKey } from './api-key-format';

describe('API key format', () => {
  it('makes recognisable keys whose prefix parses back and whose hash matches', () => {
    const { key, prefix, hash } = generateApiKey();
    expect(key).toMatch(/^sxt_[0-9a-f]{8}_[0-9A-Za-z]{40}$/);
    expect(parseApiKey(key)).toEqual({ prefix });
    expect(hash).toBe(hashApiKey(key));
    expect(hash).not.toContain(key.slice(13));
    expect(apiKeyMatches(key, hash)).toBe(true);
  });

  it('never repeats a secret across many keys', () => {
    const secrets = new Set(Array.from({ length: 2000 }, () => generateApiKey().key.slice(13)));
    expect(secrets.size).toBe(2000);
  });

  it('rejects any key that differs from the stored one in a single character', () => {
    const { key, hash } = generateApiKey();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: key.length - 1 }), fc.constantFrom(...'0123456789abcdefXYZ_'), (i, ch) => {
        fc.pre(key[i] !== ch);
        expect(apiKeyMatches(`${key.slice(0, i)}${ch}${key.slice(i + 1)}`, hash)).toBe(false);
      }),
    );
  });

  it.each(['', 'sxt_', 'sxt_1234567_abcdefghijklmnopqrstuvwxyz0123456', 'sxt_ABCDEF12_abcdefghijklmnopqrstuvwxyz0123456', 'ghp_12345678_abcdefghijklmnopqrstuvwxyz0123456', 'sxt_12345678_short', 'sxt_12345678_abc-defghijklmnopqrstuvwxyz0123456'])(
    'does not parse %j as a key',
    (token) => expect(parseApiKey(token)).toBeUndefined(),
  );

  it('treats a corrupt stored hash as no match instead of throwing', () => {
    expect(apiKeyMatches(generateApiKey().key, 'abc')).toBe(false);
  });
});
