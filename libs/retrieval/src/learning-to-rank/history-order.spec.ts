import { checkUndatedOrder, NEWEST_FIRST_MARGIN } from './history-order';

describe('checkUndatedOrder', () => {
  // A project that dropped lib/ halfway: half of its early tasks name only files that are gone,
  // or nothing at all when they were written with their paths at the cutoff.
  const oldestFirst = [...Array.from({ length: 40 }, (_, i) => (i % 2 ? [`lib/m${i % 5}.py`] : i % 4 ? [] : [`src/m${i % 5}.py`, 'lib/x.py'])), ...Array.from({ length: 60 }, (_, i) => [`src/m${i % 5}.py`])];
  const indexed = new Set(Array.from({ length: 5 }, (_, i) => `src/m${i}.py`));

  it('takes a history whose newest tasks name more of today\'s files as listed oldest first', () => {
    expect(checkUndatedOrder(oldestFirst, indexed)).toEqual({ firstQuarterLive: 0.28, lastQuarterLive: 1, newestFirst: false });
  });

  it('reads the same history reversed as newest first', () => {
    expect(checkUndatedOrder([...oldestFirst].reverse(), indexed)).toEqual({ firstQuarterLive: 1, lastQuarterLive: 0.28, newestFirst: true });
  });

  it('takes a history without that asymmetry as listed, whichever way it runs', () => {
    const even = Array.from({ length: 100 }, (_, i) => (i % 10 === 0 ? ['lib/gone.py'] : [`src/m${i % 5}.py`]));
    expect(checkUndatedOrder(even, indexed).newestFirst).toBe(false);
    expect(checkUndatedOrder([...even].reverse(), indexed).newestFirst).toBe(false);
    // One task short of the margin is not enough; at the margin it is.
    const gone = Math.ceil(25 * NEWEST_FIRST_MARGIN);
    const slight = (n: number) => [...Array.from({ length: 75 }, () => ['src/m1.py']), ...Array.from({ length: 25 }, (_, i) => (i < n ? ['lib/gone.py'] : ['src/m3.py']))];
    expect(checkUndatedOrder(slight(gone - 1), indexed).newestFirst).toBe(false);
    expect(checkUndatedOrder(slight(gone), indexed).newestFirst).toBe(true);
  });
});
