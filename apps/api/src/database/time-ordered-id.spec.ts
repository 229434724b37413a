import { randomUUID } from 'node:crypto';
import { isTimeOrderedId, timeOrderedId } from './time-ordered-id';

describe('timeOrderedId', () => {
  it('is a version-7 RFC 9562 UUID carrying the timestamp', () => {
    const id = timeOrderedId(Date.UTC(2026, 10, 22));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBeGreaterThanOrEqual(Date.UTC(2026, 10, 22));
  });

  it('increases strictly within one millisecond and across many, and never repeats', () => {
    const ms = Date.now() + 60_000;
    const ids = Array.from({ length: 10_000 }, (_, i) => timeOrderedId(ms + Math.floor(i / 5000)));
    const sorted = [...ids].sort();
    expect(sorted).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('does not go backwards when the clock does', () => {
    const later = timeOrderedId(Date.now() + 120_000);
    expect(timeOrderedId(Date.now()) > later).toBe(true);
  });

  it('tells its ids from random (v4) UUIDs, which rows stored by earlier versions have', () => {
    expect(isTimeOrderedId(timeOrderedId())).toBe(true);
    expect(isTimeOrderedId(randomUUID())).toBe(false);
    expect(isTimeOrderedId('row-1')).toBe(false);
  });
});
