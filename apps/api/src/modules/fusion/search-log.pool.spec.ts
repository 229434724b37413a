import type { SearchPoolEntity } from './search-log.entity';
import { POOL_DEPTH, SHOWN_POOL_SOURCE, shownOnlyPoolItems } from './search-log.service';
import { toRankings } from '../feedback/feedback.service';

describe('the search pool', () => {
  const dense = { source: 'file.dense', items: Array.from({ length: POOL_DEPTH + 10 }, (_, i) => ({ id: `file:r:f${i}.py`, score: 1 - i / 100 })) };

  it('holds every shown result: those no source pooled (the ranker\'s own, deeper than the pool) under "shown"', () => {
    const results = [
      { id: 'file:r:f0.py', rank: 1, score: 0.9 },
      { id: 'file:r:history-only.py', rank: 2, score: 0.7 }, // the learned ranker's own candidate
      { id: `file:r:f${POOL_DEPTH + 5}.py`, rank: 3, score: 0.6 }, // dense ranked it past the pool's depth
      { id: 'chunk-1', rank: 4, score: 0.5 }, // a chunk pooled under its file's sources
    ];
    const extra = [{ source: 'file.dense', itemId: 'chunk-1', rank: 1, score: 1 }];
    expect(shownOnlyPoolItems(results, [dense], extra)).toEqual([
      { source: SHOWN_POOL_SOURCE, itemId: 'file:r:history-only.py', rank: 2, score: 0.7 },
      { source: SHOWN_POOL_SOURCE, itemId: `file:r:f${POOL_DEPTH + 5}.py`, rank: 3, score: 0.6 },
    ]);
  });

  it('feedback credits sources only: shown-only rows are no source\'s ranking', () => {
    const row = (source: string, itemId: string, rank: number) => ({ source, itemId, rank, score: 1 / rank }) as SearchPoolEntity;
    const rankings = toRankings([row('file.dense', 'a', 2), row('file.dense', 'b', 1), row(SHOWN_POOL_SOURCE, 'z', 3)]);
    expect(rankings).toEqual([{ source: 'file.dense', items: [{ id: 'b', score: 1 }, { id: 'a', score: 0.5 }] }]);
  });
});
