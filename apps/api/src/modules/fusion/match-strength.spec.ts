import { describeWeakMatch, type SearchSource } from '@sextant/contracts';
import { matchStrength, WEAK_MATCH_BELOW } from './search.service';

const hits = (...sources: SearchSource[]) => new Map(sources.map((s) => [s, { result: { files: [{ path: 'a.py' }] } }]));
const noMentions = { mentioned: new Map() };

describe('matchStrength: whether results answer the query, and why not', () => {
  it('is none for an empty list', () => {
    expect(matchStrength([], hits('file.keyword'), noMentions)).toEqual({ match: 'none' });
  });

  it('is weak (embeddings only) when no keyword, symbol or task-keyword source found anything and no file is named', () => {
    expect(matchStrength([{ score: 0.9 }], hits('file.dense', 'task.dense'), noMentions)).toEqual({ match: 'weak', reason: 'embedding_only' });
    expect(matchStrength([{ score: 0.9 }], hits('file.dense'), { mentioned: new Map([['file:r:a.py', {}]]) })).toEqual({ match: 'strong' });
  });

  it('is weak (low relevance) when words matched but the learned ranker rates the best file under the threshold', () => {
    expect(matchStrength([{ score: WEAK_MATCH_BELOW / 2, ranker: {} }], hits('file.keyword'), noMentions)).toEqual({ match: 'weak', reason: 'low_relevance' });
    expect(matchStrength([{ score: WEAK_MATCH_BELOW * 2, ranker: {} }], hits('task.keyword'), noMentions)).toEqual({ match: 'strong' });
  });

  it('does not read an uncalibrated fused score as low relevance', () => {
    expect(matchStrength([{ score: 0.001 }], hits('file.symbol'), noMentions)).toEqual({ match: 'strong' });
  });

  it('words each reason differently, with the calibrated chance for a low-relevance match', () => {
    expect(describeWeakMatch('embedding_only')).toMatch(/no keyword, symbol or past-task hit/);
    expect(describeWeakMatch('low_relevance', 0.0234)).toMatch(/words matched, .* only a 2\.3 % chance/);
    expect(describeWeakMatch(undefined)).toBe(describeWeakMatch('embedding_only'));
  });
});
