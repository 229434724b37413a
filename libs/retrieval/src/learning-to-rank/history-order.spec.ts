import { checkUndatedOrder, NEWEST_FIRST_MARGIN } from './history-order';

describe('checkUndatedOrder', () => {
  // A project that renamed lib/ to src/ halfway: its early tasks name files that are gone.
  const oldestFirst = [...Array.from({ length: 40 }, (_, i) => [`lib/m${i % 5}.py`, `src/m${i % 5}.py`]), ...Array.from({ length: 60 }, (_, i) => [`src/m${i % 5}.py`])];
  const indexed = new Set(Array.from({ length: 5 }, (_, i) => `src/m${i}.py`));

  it('takes a history whose newest tasks name more of today\'s files as listed oldest first', () => {
    const check = checkUndatedOrder(oldestFirst, indexed);
    expect(check).toEqual({ firstQuarterIndexed: 0.5, lastQuarterIndexed: 1, newestFirst: false });
  });

  it('reads the same history reversed as newest first', () => {
    expect(checkUndatedOrder([...oldestFirst].reverse(), indexed)).toEqual({ firstQuarterIndexed: 1, lastQuarterIndexed: 0.5, newestFirst: true });
  });

  it('takes a history without that asymmetry as listed, whichever way it runs', () => {
    const even = Array.from({ length: 100 }, (_, i) => (i % 10 === 0 ? ['lib/gone.py'] : [`src/m${i % 5}.py`]));
    expect(checkUndatedOrder(even, indexed).newestFirst).toBe(false);
    expect(checkUndatedOrder([...even].reverse(), indexed).newestFirst).toBe(false);
    // Just under the margin is not enough.
    const slight = [...Array.from({ length: 25 }, () => ['src/m1.py']), ...Array.from({ length: 50 }, () => ['src/m2.py']), ...Array.from({ length: 25 }, (_, i) => (i < Math.ceil(25 * NEWEST_FIRST_MARGIN) - 1 ? ['lib/gone.py'] : ['src/m3.py']))];
    expect(checkUndatedOrder(slight, indexed).newestFirst).toBe(false);
  });
});
