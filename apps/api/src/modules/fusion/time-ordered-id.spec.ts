import { timeOrderedId } from './time-ordered-id';

describe('timeOrderedId', () => {
  it('is a version 7 UUID whose leading 48 bits are the millisecond', () => {
    const id = timeOrderedId(Date.UTC(2026, 0, 1));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBeGreaterThanOrEqual(Date.UTC(2026, 0, 1));
  });

  it('sorts in creation order, also within one millisecond and when the clock steps back', () => {
    const t = Date.now() + 60_000;
    const ids = [...Array.from({ length: 5000 }, () => timeOrderedId(t)), timeOrderedId(t - 10), timeOrderedId(t + 5)];
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
