import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventEmitter2 } from '@nestjs/event-emitter';
import request from 'supertest';
import { RankerStatusSchema, SearchResponseSchema } from '@sextant/contracts';
import { CALIBRATION_FIT } from '@sextant/retrieval';
import { DataSource } from 'typeorm';
import { LearnedRankerService } from '../../src/modules/fusion/learned-ranker.service';
import { RankerTrainingService } from '../../src/modules/fusion/ranker-training.service';
import { IndexEvents } from '../../src/modules/indexing/services/indexing.tokens';
import { WorkspacesService } from '../../src/modules/workspaces/workspaces.service';
import { makeFixtureRepo } from '../helpers/fixture-repo';
import { runCli } from '../helpers/spawn-cli';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { SECOND, vocabularyHistory, vocabularyProject, WORDS } from '../helpers/vocabulary-history';
import { waitFor } from '../helpers/wait';

/**
 * Twenty modules whose code never uses the words customers use for them; a long history of
 * tasks teaches those words (each module has its own pair). A notes file repeats every
 * customer word, so code search alone ranks it first: the decoy fusion has to get past.
 */
const MODULES = WORDS.length;

function project(): Record<string, string> {
  const files = vocabularyProject(MODULES);
  files['src/decoy/notes.py'] = `"""Customer vocabulary."""\n${WORDS.map((w, i) => `# customers say ${w} ${SECOND[i]} problem`).join('\n')}\nNOTES = True\n`;
  return files;
}

const history = (count: number) => vocabularyHistory(count, MODULES);

describe('learned ranker (real app, SQLite + embedded store)', () => {
  let t: TestApp;
  const api = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await startTestApp();
    const reg = await api().post('/v1/repos').send({ path: makeFixtureRepo(project(), { git: true }), name: 'app' }).expect(201);
    await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'index job' });
  }, 60_000);
  afterAll(() => t.close());

  it('with too little history there is no model and searches use plain fusion', async () => {
    await api().post('/v1/tasks').send({ tasks: history(30) }).expect(201);
    const trained = RankerStatusSchema.parse((await api().post('/v1/ranker/train').expect(200)).body);
    expect(trained).toMatchObject({ state: 'none', model_version: null, history_tasks: 30 });
    expect(trained.message).toMatch(/needs at least 100 past tasks/);
    const res = SearchResponseSchema.parse((await api().post('/v1/search').send({ query: 'customers report amber ledger problem' }).expect(200)).body);
    expect(res.results.every((r) => r.explain.ranker === undefined)).toBe(true);
  });

  it('trains from the history, beats fusion on held-out tasks, and ranks default searches with explained, calibrated scores', async () => {
    await api().post('/v1/tasks').send({ tasks: history(200) }).expect(201);
    const query = `customers report ${WORDS[5]} ${SECOND[5]} problem`;
    const before = SearchResponseSchema.parse((await api().post('/v1/search').send({ query }).expect(200)).body);
    const trained = RankerStatusSchema.parse((await api().post('/v1/ranker/train').expect(200)).body);
    expect(trained.state).toBe('active');
    expect(trained.validation!.queries).toBeGreaterThan(10);
    expect(trained.validation!.ranker.mrr).toBeGreaterThanOrEqual(trained.validation!.fusion.mrr);
    expect(trained.top_weights.length).toBeGreaterThan(0);
    expect(RankerStatusSchema.parse((await api().get('/v1/ranker').expect(200)).body)).toMatchObject({ state: 'active', model_version: trained.model_version });

    const after = SearchResponseSchema.parse((await api().post('/v1/search').send({ query }).expect(200)).body);
    expect(after.results[0].path).toBe('src/m5/service.py');
    expect(after.results[0].explain.ranker).toMatchObject({ model_version: trained.model_version });
    expect(after.results[0].explain.ranker!.contributions.length).toBeGreaterThan(0);
    // The code-first model holds the top five places; the all-changed model orders the places below.
    expect(after.results.length).toBeGreaterThan(5);
    expect(after.results.map((r) => r.explain.ranker!.placed_by)).toEqual(after.results.map((_, i) => (i < 5 ? 'code_first' : 'all_changed')));
    // Scores are probabilities now: within [0, 1], decreasing.
    for (const r of after.results) expect(r.score).toBeGreaterThanOrEqual(0);
    expect(after.results[0].score).toBeLessThanOrEqual(1);
    expect(after.results.map((r) => r.score)).toEqual([...after.results.map((r) => r.score)].sort((a, b) => b - a));
    expect(after.results.findIndex((r) => r.path === 'src/decoy/notes.py')).not.toBe(0);
    // The decoy is where fusion alone puts it, at least as high as after training.
    const decoyBefore = before.results.findIndex((r) => r.path === 'src/decoy/notes.py');
    const decoyAfter = after.results.findIndex((r) => r.path === 'src/decoy/notes.py');
    expect(decoyAfter === -1 || decoyBefore === -1 || decoyAfter >= decoyBefore).toBe(true);
  }, 120_000);

  it('searches a multi-paragraph query by its title too, and merges both rankings into one list of probabilities', async () => {
    // An issue report: the title names the module in the customers' words; the body is prose about
    // another module's words, which pulls the whole-text search towards that module.
    const title = `Customers report ${WORDS[8]} ${SECOND[8]} problem`;
    const body = Array.from({ length: 6 }, () => `When I open the ${WORDS[3]} page the ${SECOND[3]} list looks odd, then it works again.`).join(' ');
    const issue = SearchResponseSchema.parse((await api().post('/v1/search').send({ query: `${title}\n\n${body}` }).expect(200)).body);
    expect(issue.timings_ms.title_wait).toBeGreaterThanOrEqual(0);
    expect(issue.results.slice(0, 2).map((r) => r.path)).toContain('src/m8/service.py');
    // Each result says what the two searches gave it; its score is their weighted mean.
    const m8 = issue.results.find((r) => r.path === 'src/m8/service.py')!;
    expect(m8.explain.title_search!.title_score).toBeGreaterThan(m8.explain.title_search!.text_score);
    for (const r of issue.results) {
      const t = r.explain.title_search!;
      // Below the top five the all-changed model orders the merged list; each file takes the score of its place.
      if (r.explain.ranker?.placed_by === 'all_changed') continue;
      expect(r.score).toBeCloseTo((t.text_score + t.title_weight * t.title_score) / (1 + t.title_weight), 4);
    }
    expect(issue.results.slice(0, 5).every((r) => r.explain.ranker?.placed_by === 'code_first')).toBe(true);
    expect(issue.results.map((r) => r.score)).toEqual([...issue.results.map((r) => r.score)].sort((a, b) => b - a));
    for (const r of issue.results) {
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
    }
    // Without a body (or a title too long to be one) there is no second search.
    const single = SearchResponseSchema.parse((await api().post('/v1/search').send({ query: title }).expect(200)).body);
    expect(single.timings_ms.title_wait).toBeUndefined();
    expect(single.results.every((r) => r.explain.title_search === undefined)).toBe(true);
    // Requests that choose their strategy get exactly that: no ranker, no title search.
    const chosen = SearchResponseSchema.parse((await api().post('/v1/search').send({ query: `${title}\n\n${body}`, strategy: 'rrf' }).expect(200)).body);
    expect(chosen.timings_ms.title_wait).toBeUndefined();
  });

  it('requests that pick a strategy, sources or weights get exactly that, without the ranker', async () => {
    const query = `customers report ${WORDS[2]} ${SECOND[2]} problem`;
    for (const body of [{ query, strategy: 'rrf' }, { query, sources: ['file.keyword', 'task.keyword'] }, { query, weights: { 'file.dense': 2 } }]) {
      const res = SearchResponseSchema.parse((await api().post('/v1/search').send(body).expect(200)).body);
      expect(res.results.every((r) => r.explain.ranker === undefined)).toBe(true);
    }
  });

  it('the CLI shows and retrains the same model', async () => {
    const env = { SEXTANT_DATA_DIR: t.dataDir, DATABASE_URL: t.config.storage.databaseUrl ?? '' };
    const status = await runCli(['ranker', 'status'], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/Learned ranker: active \(model v\d+/);
    expect(status.stdout).toMatch(/held-out newest \d+ tasks: ranker MRR/);
    const trained = await runCli(['ranker', 'train', '--json'], env, 60_000);
    expect(trained.code).toBe(0);
    expect(RankerStatusSchema.parse(JSON.parse(trained.stdout)).state).toBe('active');
    // `sextant search` says why the ranker put each file where it is, and what the title search gave it.
    const issueFile = join(t.dataDir, 'issue.txt');
    writeFileSync(issueFile, `Customers report ${WORDS[8]} ${SECOND[8]} problem\n\nWhen I open the ${WORDS[3]} page the ${SECOND[3]} list looks odd, then it works again.`);
    const searched = await runCli(['search', '--query-file', issueFile], env, 60_000);
    expect(searched.code).toBe(0);
    expect(searched.stdout).toMatch(/ranker v\d+: [a-z.0-9_]+ [+-]\d\.\d\d.*; title alone 0\.\d\d, whole text 0\.\d\d/);
    const bad = await runCli(['ranker', 'status', '--workspace', 'nope'], env);
    expect(bad.code).toBe(3);
  }, 90_000);

  it('ratings train the ranker too: a team that rates the regression test as the answer gets tests higher in new searches', async () => {
    const ranker = t.app.get(LearnedRankerService);
    const workspaceId = (await t.app.get(WorkspacesService).ensureDefault()).id;
    const testWeight = async () => {
      const { model } = (await ranker.current(workspaceId))!;
      return model.weights[model.featureNames.indexOf('kind.test')];
    };
    const search = async (i: number, granularity: 'file' | 'chunk' = 'file') => SearchResponseSchema.parse((await api().post('/v1/search').send({ query: `customers report ${WORDS[i]} ${SECOND[i]} problem`, granularity }).expect(200)).body);
    // How far the test trails its module's code for a module nobody rates (raw ranker scores).
    const gap = (res: Awaited<ReturnType<typeof search>>, i: number) => {
      const score = (path: string) => res.results.find((r) => r.path === path)?.explain.ranker?.rank_score;
      return score(`src/m${i}/service.py`)! - score(`tests/test_m${i}.py`)!;
    };
    const unrated = 15;
    const weightBefore = await testWeight();
    const gapBefore = gap(await search(unrated), unrated);
    expect(Number.isFinite(gapBefore)).toBe(true);

    const rated = 12;
    const toRate: Array<{ search_id: string; item_id: string }> = [];
    for (let i = 0; i < rated; i++) {
      // One of them rates a chunk (a function of the test), which counts for its file.
      const res = await search(i, i === 0 ? 'chunk' : 'file');
      const test = res.results.find((r) => r.path === `tests/test_m${i}.py`);
      expect(test).toBeDefined();
      toRate.push({ search_id: res.search_id, item_id: test!.id });
    }
    // Back to back, well inside the 5 s debounce: one refit sees all twelve.
    for (const r of toRate) await api().post('/v1/feedback').send({ ...r, rating: 1 }).expect(200);
    // No train call: ten newly rated searches make the server refit on its own (debounced).
    await waitFor(async () => RankerStatusSchema.parse((await api().get('/v1/ranker').expect(200)).body).rated_searches === rated, { what: 'a refit with the ratings', timeoutMs: 60_000 });
    const status = RankerStatusSchema.parse((await api().get('/v1/ranker').expect(200)).body);
    expect(status.state).toBe('active');
    expect(status.message).toMatch(new RegExp(`and ${rated} rated searches`));
    expect(await testWeight()).toBeGreaterThan(weightBefore);
    expect(gap(await search(unrated), unrated)).toBeLessThan(gapBefore);
  }, 120_000);

  it('a nonsense query is a weak match even with a trained ranker', async () => {
    const res = SearchResponseSchema.parse((await api().post('/v1/search').send({ query: 'zzqqxxnonexistentterm' }).expect(200)).body);
    expect(res).toMatchObject({ match: 'weak', match_reason: 'embedding_only' });
  });

  it('a short query whose words the workspace mostly never saw is a weak match that names those words, however sure the ranker is', async () => {
    const known = SearchResponseSchema.parse((await api().post('/v1/search').send({ query: `${WORDS[5]} ${SECOND[5]} problem` }).expect(200)).body);
    expect(known.match).toBe('strong');
    expect(known.unknown_terms).toBeUndefined();
    const res = SearchResponseSchema.parse((await api().post('/v1/search').send({ query: `kubernetes helm ${WORDS[5]}` }).expect(200)).body);
    expect(res.results[0].explain.ranker).toBeDefined();
    expect(res).toMatchObject({ match: 'weak', match_reason: 'unknown_terms', unknown_terms: ['kubernetes', 'helm'] });
    const cli = await runCli(['search', `kubernetes helm ${WORDS[5]}`], { SEXTANT_DATA_DIR: t.dataDir, DATABASE_URL: t.config.storage.databaseUrl ?? '' });
    expect(cli.code).toBe(0);
    expect(cli.stdout.split('\n')[1]).toBe("Weak match: most of the query's words (kubernetes, helm) appear nowhere in the indexed code or its history; the results match only the rest.");
  });

  it('a model whose probabilities an older calibration fitted is refitted once (after an upgrade), and only once', async () => {
    const workspaceId = (await t.app.get(WorkspacesService).ensureDefault()).id;
    const training = t.app.get(RankerTrainingService);
    const db = t.app.get(DataSource);
    const p = (i: number) => (db.options.type === 'postgres' ? `$${i}` : '?');
    const [row] = await db.query(`SELECT id, version, model FROM ranker_models WHERE workspace_id = ${p(1)} ORDER BY version DESC LIMIT 1`, [workspaceId]);
    // As a model fitted before the calibration fix was stored: no calibrationFit, probabilities near 1 for everything.
    const { calibrationFit, ...old } = JSON.parse(row.model);
    expect(calibrationFit).toBe(CALIBRATION_FIT);
    await db.query(`UPDATE ranker_models SET model = ${p(1)} WHERE id = ${p(2)}`, [JSON.stringify({ ...old, calibration: { a: 1.3, b: -0.4 } }), row.id]);
    expect(await training.trainIfDue(workspaceId)).not.toBeNull();
    const refitted = RankerStatusSchema.parse((await api().get('/v1/ranker').expect(200)).body);
    expect(refitted.model_version).toBe(row.version + 1);
    const [newest] = await db.query(`SELECT model FROM ranker_models WHERE workspace_id = ${p(1)} ORDER BY version DESC LIMIT 1`, [workspaceId]);
    expect(JSON.parse(newest.model)).toMatchObject({ calibrationFit: CALIBRATION_FIT });
    expect(JSON.parse(newest.model).calibration.b).toBeLessThan(-1);
    expect(await training.refitStaleCalibrations()).toBe(0);
    expect(await training.trainIfDue(workspaceId)).toBeNull();
  }, 120_000);

  it('after an index job, searches keep the previous whole-file index until the rebuilt one is ready', async () => {
    const ranker = t.app.get(LearnedRankerService);
    const workspaceId = (await t.app.get(WorkspacesService).ensureDefault()).id;
    const repo = (await api().get('/v1/repos').expect(200)).body.repositories[0];
    const before = await ranker.fileIndex(workspaceId);
    expect(before?.search(['zebracorn'], 5)).toEqual([]);
    appendFileSync(join(repo.root_path, 'src/m3/service.py'), '# zebracorn migration\n');

    t.app.get(EventEmitter2).emit(IndexEvents.Done, { workspace_id: workspaceId, repository_id: repo.id });
    expect(await ranker.fileIndex(workspaceId)).toBe(before);
    await ranker.settled(workspaceId);
    const after = await ranker.fileIndex(workspaceId);
    expect(after).not.toBe(before);
    expect(after?.search(['zebracorn'], 5).map((f) => f.path)).toEqual(['src/m3/service.py']);
  });
});
