import request from 'supertest';
import { RankerStatusSchema } from '@sextant/contracts';
import type { TestApp } from '../helpers/test-app';
import { startVocabularyApp, vocabularyHistory, WORDS } from '../helpers/vocabulary-history';

const MODULES = WORDS.length;

/**
 * A tracker's export where only the older tickets list the files they changed: the training
 * queries sit more than a thousand tasks before the end of the history, so each is asked with
 * that many newer tasks hidden, and past tasks must still answer it.
 */
describe('a history whose newest thousand tasks name no files (real app)', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startVocabularyApp()), 60_000);
  afterAll(() => t.close());

  it('trains the ranker with past tasks as evidence for every training query', async () => {
    const api = () => request(t.app.getHttpServer());
    const withFiles = vocabularyHistory(200, MODULES);
    const withoutFiles = Array.from({ length: 1100 }, (_, n) => ({ id: `Q-${n}`, title: `Question ${n} from the help desk`, body: 'No files were recorded for this ticket.', created_at: new Date(Date.UTC(2024, 0, 1) + n * 3_600_000).toISOString() }));
    for (let i = 0; i < withoutFiles.length; i += 500) await api().post('/v1/tasks').send({ tasks: [...(i === 0 ? withFiles : []), ...withoutFiles.slice(i, i + 500)] }).expect(201);
    const trained = RankerStatusSchema.parse((await api().post('/v1/ranker/train').expect(200)).body);
    expect(trained.validation!.queries).toBeGreaterThan(10);
    // The code never uses the customers' words: only past tasks find the module, so fusion's recall on the held-out tasks is theirs.
    expect(trained.validation!.fusion.r10).toBeGreaterThan(0.8);
    expect(trained.state).toBe('active');
  }, 180_000);
});
