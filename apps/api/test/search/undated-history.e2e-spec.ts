import request from 'supertest';
import { RankerStatusSchema, SearchResponseSchema } from '@sextant/contracts';
import { TasksRepository } from '../../src/modules/task-history/tasks.repository';
import { WorkspacesService } from '../../src/modules/workspaces/workspaces.service';
import type { TestApp } from '../helpers/test-app';
import { SECOND, startVocabularyApp, vocabularyHistory, WORDS } from '../helpers/vocabulary-history';

/**
 * A history exported without dates (a ticket tracker's CSV, a hand-made JSONL): the order it was
 * imported in is its time order, and the learned ranker trains on it as on a dated one.
 */
const MODULES = WORDS.length;

describe('a task history without dates (real app, SQLite or Postgres + embedded store)', () => {
  let t: TestApp;
  const api = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await startVocabularyApp();
  }, 60_000);
  afterAll(() => t.close());

  it('keeps the import order, trains the ranker from it, and ranks searches with it', async () => {
    // Ids whose sort order is not the import order, so nothing but the import order can give it.
    const tasks = vocabularyHistory(200, MODULES).map(({ created_at: _date, ...task }, n) => ({ ...task, id: `K-${((n * 7919) % 997).toString(36)}-${n}` }));
    await api().post('/v1/tasks').send({ tasks: tasks.slice(0, 120) }).expect(201);
    await api().post('/v1/tasks').send({ tasks: tasks.slice(120) }).expect(201);
    const workspace = await t.app.get(WorkspacesService).ensureDefault();
    const history = await t.app.get(TasksRepository).listHistory(workspace.id, { withText: true });
    expect(history.map((h) => h.title)).toEqual(tasks.map((task) => task.title));

    const trained = RankerStatusSchema.parse((await api().post('/v1/ranker/train').expect(200)).body);
    expect(trained.state).toBe('active');
    expect(trained.validation!.queries).toBeGreaterThan(10);

    const res = SearchResponseSchema.parse((await api().post('/v1/search').send({ query: `customers report ${WORDS[5]} ${SECOND[5]} problem` }).expect(200)).body);
    expect(res.results[0].path).toBe('src/m5/service.py');
    expect(res.results[0].explain.ranker).toMatchObject({ model_version: trained.model_version });
  }, 120_000);
});
