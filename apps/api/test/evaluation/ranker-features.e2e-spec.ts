import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readRunFile } from '@sextant/eval';
import { calibratedScore, FEATURE_NAMES, reorderBelowTop, scoreCandidates, type LinearRankerModel } from '@sextant/retrieval';
import { writeFiles } from '../helpers/fixture-repo';
import { runCli } from '../helpers/spawn-cli';
import { vocabularyHistory, vocabularyProject } from '../helpers/vocabulary-history';

/**
 * Twelve modules whose code never uses the words their past tasks use, and a history long
 * enough for the learned ranker to be fitted (helpers/vocabulary-history): `eval run
 * --ranker-features` must log the lists it trained on and the candidates of every default
 * search, such that scoring the logged features with the logged model gives the order the
 * search returned.
 */
const MODULES = 12;
const TASKS = 140;

const QUERIES = [
  { id: 'q-cobalt', query: 'cobalt export problem again', relevant: ['src/m2/service.py'], type: 'conceptual' },
  { id: 'q-garnet', query: 'garnet billing misbehaves', relevant: ['src/m6/service.py'], type: 'conceptual' },
  { id: 'q-long', query: 'kestrel report fails\n\nSupport saw the kestrel flow break right after the report step, twice this week, for the same customers.', relevant: ['src/m10/service.py'], type: 'conceptual' },
];

type Logged = { kind: string; [key: string]: unknown };
type Candidates = Array<{ path: string; features: number[] }>;

describe('sextant eval run --ranker-features', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-features-e2e-')));
  const datasetDir = path.join(base, 'dataset');
  const logFile = path.join(base, 'out', 'features.jsonl');
  let run: Awaited<ReturnType<typeof runCli>>;
  let records: Logged[];

  beforeAll(async () => {
    writeFiles(path.join(datasetDir, 'corpus'), vocabularyProject(MODULES));
    fs.writeFileSync(path.join(datasetDir, 'tasks.jsonl'), vocabularyHistory(TASKS, MODULES).map((t) => JSON.stringify(t)).join('\n') + '\n');
    fs.writeFileSync(path.join(datasetDir, 'queries.jsonl'), QUERIES.map((q) => JSON.stringify(q)).join('\n') + '\n');
    run = await runCli(['eval', 'run', '--dataset', datasetDir, '--strategies', 'weighted_default', '--json', path.join(base, 'out', 'run.json'), '--ranker-features', logFile], { DATABASE_URL: '', SEXTANT_DATA_DIR: path.join(base, 'data') }, 180000);
    records = run.code === 0 ? fs.readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Logged) : [];
  }, 200000);
  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

  it('exits 0, says where the log is, and names the features on its first line', () => {
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stderr).toContain(`Ranker features: ${logFile}`);
    expect(records[0]).toEqual({ kind: 'header', features: [...FEATURE_NAMES] });
  });

  it('logs every training list with its labels and a feature vector per candidate', () => {
    const train = records.filter((r) => r.kind === 'train');
    // Every task from the 21st on touches indexed files, so each is a training query.
    expect(train).toHaveLength(TASKS - 20);
    const byQuery = new Map(vocabularyHistory(TASKS, MODULES).map((t) => [`${t.title}\n\n${t.body}`, t]));
    for (const r of train) {
      const task = byQuery.get(r.query as string)!;
      expect(task).toBeDefined();
      expect(r.source).toBe('task');
      // Code files count fully, tests half (SUPPORTING_FILE_GRADE).
      expect(r.labels).toEqual(Object.fromEntries(task.files.map((f) => [f, f.startsWith('tests/') ? 0.5 : 1])));
      expect(r.relevant_total).toBe(task.files.length);
      const candidates = r.candidates as Candidates;
      expect(candidates.length).toBeGreaterThan(1);
      for (const c of candidates) expect(c.features).toHaveLength(FEATURE_NAMES.length);
    }
    // In history order, each asked with at most its own past.
    expect(train.map((r) => r.position)).toEqual(Array.from({ length: TASKS - 20 }, (_, i) => 20 + i));
    for (const r of train) expect(r.as_of as number).toBeLessThanOrEqual(r.position as number);
  });

  it('logs the fitted model, and its scores of the logged candidates give the order the search returned', async () => {
    const models = records.filter((r) => r.kind === 'model');
    expect(models).toHaveLength(1);
    expect(models[0].accepted).toBe(true);
    const model = models[0].model as LinearRankerModel & { allChanged: LinearRankerModel };
    expect(model.featureNames).toEqual([...FEATURE_NAMES]);
    expect(model.allChanged.featureNames).toEqual([...FEATURE_NAMES]);

    const searches = records.filter((r) => r.kind === 'search');
    // One list per query, and one more for the first paragraph of the multi-paragraph query.
    expect(searches.map((s) => `${s.pass}:${s.query}`).sort()).toEqual([...QUERIES.map((q) => `full:${q.query}`), `title:${QUERIES[2].query}`].sort());

    const runs = (await readRunFile(path.join(base, 'out', 'run.json'))).runs.weighted_default;
    for (const q of QUERIES.slice(0, 2)) {
      const logged = searches.find((s) => s.query === q.query)!.candidates as Candidates;
      const features = logged.map((c) => Float64Array.from(c.features));
      const scores = scoreCandidates(model, features);
      const allChanged = scoreCandidates(model.allChanged, features);
      // The code-first model's order, with the places below the top ones re-ordered by the all-changed model.
      const codeFirst = logged.map((c, i) => ({ path: c.path, score: scores[i], i })).sort((a, b) => b.score - a.score || a.i - b.i);
      const order = reorderBelowTop(codeFirst, (c) => calibratedScore(model.allChanged, allChanged[c.i])).map((c) => c.path);
      expect(order.slice(0, 10)).toEqual(runs[q.id].slice(0, 10));
      expect(order[0]).toBe(q.relevant[0]);
    }
  });

  it('with too little history to fit a model, the log holds the header alone and the run says why', async () => {
    const short = path.join(base, 'short');
    writeFiles(path.join(short, 'corpus'), vocabularyProject(MODULES));
    fs.writeFileSync(path.join(short, 'tasks.jsonl'), vocabularyHistory(30, MODULES).map((t) => JSON.stringify(t)).join('\n') + '\n');
    fs.copyFileSync(path.join(datasetDir, 'queries.jsonl'), path.join(short, 'queries.jsonl'));
    const file = path.join(base, 'out', 'short.jsonl');
    const res = await runCli(['eval', 'run', '--dataset', short, '--strategies', 'weighted_default', '--ranker-features', file], { DATABASE_URL: '', SEXTANT_DATA_DIR: path.join(base, 'data') }, 120000);
    expect({ code: res.code, stderr: res.code === 0 ? '' : res.stderr }).toEqual({ code: 0, stderr: '' });
    expect(res.stderr).toMatch(/Ranker features: .*short\.jsonl \(no active model, so no search lists: Not trained: the learned ranker needs at least 100 past tasks/);
    expect(fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l).kind)).toEqual(['header']);
  }, 150000);

  it('refuses a log path it cannot write before evaluating anything', async () => {
    const blocker = path.join(base, 'a-file');
    fs.writeFileSync(blocker, 'not a directory');
    const res = await runCli(['eval', 'run', '--dataset', datasetDir, '--strategies', 'weighted_default', '--ranker-features', path.join(blocker, 'features.jsonl')], { DATABASE_URL: '', SEXTANT_DATA_DIR: path.join(base, 'data') });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/--ranker-features .*a-file\/features\.jsonl: /);
    expect(res.stderr).not.toMatch(/Data dir:/);
  });
});
