import { definitionHit, definitionReason, describeDefinitionHit } from '@sextant/contracts';
import { asksWhereDefined, definingFiles, liftDefinitionFirst, queryIdentifiers } from './definition-first';

describe('definition lookups', () => {
  it.each([
    ['where is loadConfig', true],
    ["where's url_for defined?", true],
    ['loadConfig', true],
    ['SessionStore class', true],
    ['how does url_for build URLs', true],
    ['what does HistoryProfile.ranks do', true],
    ['find taskFilePieces', true],
    ['who calls save_record', false],
    ['where is loadConfig used', false],
    ['Fix url_for with anchors', false],
    ['test `same_origin` via public api (#3062)', false],
    ['where are sessions stored', false],
    ['where is loadConfig and why does it read the env twice before the priors file is loaded', false],
  ])('%j asks where something is defined: %s', (query, expected) => {
    expect(asksWhereDefined(query)).toBe(expected);
  });

  it('reads identifiers, not plain words', () => {
    expect([...queryIdentifiers('where is loadConfig, and app.test_client or the session?')]).toEqual(['loadConfig', 'test_client']);
  });

  it('keeps names defined in one or two files, from exact matches only', () => {
    const hits = [
      { id: 'a', reasons: ['symbol:exact:src/a.ts:loadConfig'] },
      { id: 'b', reasons: ['symbol:prefix:src/b.ts:loadConfigOrExit'] },
      { id: 'c', reasons: ['symbol:exact:src/c.py:Store.save', 'symbol:exact:src/c.py:run'] },
      { id: 'd', reasons: ['symbol:exact:src/d.py:Other.save'] },
      { id: 'e', reasons: ['symbol:exact:src/e.py:save'] },
    ];
    expect(definingFiles(new Set(['loadConfig', 'save']), hits)).toEqual(new Map([['a', 'loadConfig']]));
    expect(definingFiles(new Set(['run']), hits)).toEqual(new Map([['c', 'run']]));
  });

  it('lifts the best-placed defining file to the top with the first score, and moves nothing else', () => {
    const ranked = [
      { id: 'spec', path: 'test/config.spec.ts', score: 0.9 },
      { id: 'cli', path: 'src/cli.ts', score: 0.8 },
      { id: 'impl', path: 'src/config.ts', score: 0.7 },
      { id: 'other', path: 'src/other.ts', score: 0.1 },
    ];
    const lifted = liftDefinitionFirst(ranked, new Map([['impl', 'loadConfig']]));
    expect(lifted.map((f) => f.id)).toEqual(['impl', 'spec', 'cli', 'other']);
    expect(lifted[0]).toEqual({ id: 'impl', path: 'src/config.ts', score: 0.9, definition: { name: 'loadConfig', from: 3 } });
    expect(definitionReason(lifted[0].definition!)).toBe('definition:loadConfig:from_rank_3');
    expect(definitionHit(['bm25:and', 'definition:loadConfig:from_rank_3'])).toEqual({ name: 'loadConfig', from: 3 });
    expect(describeDefinitionHit({ name: 'loadConfig', from: 3 })).toBe('defines loadConfig, which the query asks for (was #3, behind files that use it)');
    expect(liftDefinitionFirst(ranked, new Map())).toEqual(ranked);
    // A test defining a helper of the same name is passed over for the code that defines it.
    expect(liftDefinitionFirst(ranked, new Map([['spec', 'beforeRedirect'], ['impl', 'beforeRedirect']])).map((f) => f.id)).toEqual(['impl', 'spec', 'cli', 'other']);
    expect(liftDefinitionFirst(ranked, new Map([['spec', 'fixture']]))[0]).toMatchObject({ id: 'spec', definition: { name: 'fixture', from: 1 } });
  });
});
