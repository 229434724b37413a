import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { EvalReportListResponseSchema, EvalReportSchema } from '@sextant/contracts';
import { readDataset, readRunFile, scoreRun } from '@sextant/eval';
import { EvalReportsService } from '../../src/modules/evaluation/eval-reports.service';
import { WorkspacesService } from '../../src/modules/workspaces/workspaces.service';
import { git, writeFiles } from '../helpers/fixture-repo';
import { runCli } from '../helpers/spawn-cli';
import { startTestApp } from '../helpers/test-app';

/**
 * A hand-made dataset whose answers are known without running anything: three past tasks
 * with disjoint vocabularies, each touching one file; three queries, two of which
 * paraphrase one task each and one that asks about a file no task ever touched. Twelve
 * distractor files make the top-5/top-10 cut-offs matter.
 */
const CORPUS: Record<string, string> = {
  'src/billing/invoice.ts': `/** Invoice totals with VAT, rounded per currency. */
export class InvoiceCalculator {
  computeVatTotal(netAmount: number, vatRate: number, currency: string): number {
    const gross = netAmount * (1 + vatRate);
    return roundForCurrency(gross, currency);
  }
}
function roundForCurrency(amount: number, currency: string): number {
  return currency === 'JPY' ? Math.round(amount) : Math.round(amount * 100) / 100;
}
`,
  'src/mail/smtp-sender.ts': `/** Delivers mail over SMTP, retrying while the remote mailbox is busy. */
export async function sendMailWithRetry(envelope: { to: string; body: string }, attempts = 3): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const reply = await smtpDeliver(envelope);
    if (reply.code !== 450) return;
  }
  throw new Error('mailbox busy after retries');
}
declare function smtpDeliver(envelope: { to: string; body: string }): Promise<{ code: number }>;
`,
  'src/render/thumbnail.ts': `/** Resizes uploaded pictures into square jpeg thumbnails. */
export function resizeThumbnail(pixels: Uint8Array, width: number, height: number, edge = 128): Uint8Array {
  const scale = edge / Math.max(width, height);
  return downsampleJpeg(pixels, Math.round(width * scale), Math.round(height * scale));
}
declare function downsampleJpeg(pixels: Uint8Array, w: number, h: number): Uint8Array;
`,
  'src/geo/haversine.py': `"""Great-circle distances on the earth's surface."""
import math

EARTH_RADIUS_KM = 6371.0


def haversine_distance(lat1, lon1, lat2, lon2):
    """Great circle distance between two latitude/longitude points, in kilometres."""
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    dphi = math.radians(lat2 - lat1)
    dlmb = math.radians(lon2 - lon1)
    a = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlmb / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(a))
`,
};
const DISTRACTOR_TOPICS = ['queue', 'logger', 'parser', 'router', 'config', 'cache', 'lexer', 'scheduler', 'metrics', 'sockets', 'crypto', 'widgets'];
for (const [i, topic] of DISTRACTOR_TOPICS.entries()) {
  CORPUS[`src/util/${topic}.ts`] = `/** ${topic} helpers. */
export function ${topic}Helper${i}(input: string[]): number {
  let acc = ${i};
  for (const item of input) acc += item.length * ${i + 3};
  return acc;
}
`;
}

const TASKS = [
  { id: 't-vat', title: 'Round VAT on invoice totals per currency', body: 'Invoice totals were off by a cent for euro amounts.', files: ['src/billing/invoice.ts'], created_at: '2023-01-02T00:00:00Z' },
  { id: 't-smtp', title: 'Retry SMTP delivery while the mailbox is busy', body: 'Remote mailbox answers 450; retry a few attempts.', files: ['src/mail/smtp-sender.ts'], created_at: '2023-01-03T00:00:00Z' },
  { id: 't-thumb', title: 'Resize thumbnails to square jpeg', body: 'Thumbnails of uploaded pictures were stretched.', files: ['src/render/thumbnail.ts'], created_at: '2023-01-04T00:00:00Z' },
];
const QUERIES = [
  { id: 'q-vat', query: 'VAT rounding of invoice totals is wrong for some currency', relevant: ['src/billing/invoice.ts'], type: 'conceptual' },
  { id: 'q-smtp', query: 'SMTP delivery gives up too early when the mailbox is busy', relevant: ['src/mail/smtp-sender.ts'], type: 'conceptual' },
  { id: 'q-geo', query: 'haversine_distance returns the wrong great circle distance near the poles', relevant: ['src/geo/haversine.py'], type: 'specific' },
];

const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('sextant eval run on a hand-made dataset', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-eval-e2e-')));
  const datasetDir = path.join(base, 'dataset');
  const out = path.join(base, 'out');
  /** The data dir of the server the report is published to (`--publish`). */
  const serverData = path.join(base, 'server-data');
  let run: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    writeFiles(path.join(datasetDir, 'corpus'), CORPUS);
    fs.writeFileSync(path.join(datasetDir, 'tasks.jsonl'), jsonl(TASKS));
    fs.writeFileSync(path.join(datasetDir, 'queries.jsonl'), jsonl(QUERIES));
    // A valid meta.json beside the named query file is not an input: `eval run` must not read it.
    fs.mkdirSync(path.join(base, 'loose'));
    fs.copyFileSync(path.join(datasetDir, 'queries.jsonl'), path.join(base, 'loose', 'queries.jsonl'));
    fs.writeFileSync(path.join(base, 'loose', 'meta.json'), JSON.stringify({ repo: 'stray-meta-repo', cutoff_sha: 'x', cutoff_date: null, counts: {} }));
    run = await runCli(
      ['eval', 'run', '--corpus', path.join(datasetDir, 'corpus'), '--tasks', path.join(datasetDir, 'tasks.jsonl'), '--queries', path.join(base, 'loose', 'queries.jsonl'), '--json', path.join(out, 'run.json'), '--report', path.join(out, 'report.md'), '--publish'],
      { DATABASE_URL: '', SEXTANT_DATA_DIR: serverData },
      180000,
    );
  }, 200000);
  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

  it('exits 0 and writes a run file that validates against FORMAT.md', async () => {
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    const runFile = await readRunFile(path.join(out, 'run.json'));
    const expected = ['task_only', 'file_only', 'weighted_50_50', 'weighted_70_30', 'weighted_30_70', 'rrf', 'cascade', 'vote', 'weighted_default', 'no_task', 'no_file', 'no_fusion', 'graph_fusion', 'no_graph', 'bm25_rrf', 'fts5_bm25', 'bm25_tasks', 'bm25_rrf_raw'];
    expect(Object.keys(runFile.runs)).toEqual(expected);
    const corpusFiles = new Set(Object.keys(CORPUS));
    for (const strategy of expected) {
      expect(Object.keys(runFile.runs[strategy]).sort()).toEqual(QUERIES.map((q) => q.id).sort());
      for (const ranked of Object.values(runFile.runs[strategy])) for (const p of ranked) expect(corpusFiles).toContain(p);
      expect(Object.keys(runFile.latency_ms?.[strategy] ?? {}).sort()).toEqual(QUERIES.map((q) => q.id).sort());
    }
  });

  it('task_only scores what the dataset design dictates', async () => {
    // Each paraphrasing query finds its one task, whose one file is relevant: rank 1, so
    // P@5 = 1/5, P@10 = 1/10, R = MRR = NDCG = 1. No task touched haversine.py, so the
    // third query scores 0 on everything. Means over three queries:
    const { runs } = await readRunFile(path.join(out, 'run.json'));
    const { overall, byType } = scoreRun(runs.task_only, QUERIES);
    expect(overall.p5).toBeCloseTo(0.4 / 3, 6);
    expect(overall.p10).toBeCloseTo(0.2 / 3, 6);
    expect(overall.r5).toBeCloseTo(2 / 3, 6);
    expect(overall.r10).toBeCloseTo(2 / 3, 6);
    expect(overall.mrr).toBeCloseTo(2 / 3, 6);
    expect(overall.ndcg10).toBeCloseTo(2 / 3, 6);
    expect(byType.specific.r10).toBe(0);
    expect(runs.task_only['q-geo']).not.toContain('src/geo/haversine.py');
    // The ablation without the file source asks the same thing.
    expect(runs.no_file).toEqual(runs.task_only);
  });

  it('the code sources find the file no task touched, and the default fusion keeps both', async () => {
    const { runs } = await readRunFile(path.join(out, 'run.json'));
    expect(runs.file_only['q-geo'][0]).toBe('src/geo/haversine.py');
    const rrf = scoreRun(runs.rrf, QUERIES).overall;
    expect(rrf.r10).toBe(1);
    expect(rrf.r10).toBeGreaterThan(scoreRun(runs.task_only, QUERIES).overall.r10);
  });

  it('runs the BM25 + RRF baseline: RRF (k = 60) of whole-file BM25 and the files of BM25-matched tasks', async () => {
    const { runs } = await readRunFile(path.join(out, 'run.json'));
    // The task leg finds each paraphrased task's file; no task mentions haversine.
    expect(runs.bm25_tasks['q-vat'][0]).toBe('src/billing/invoice.ts');
    expect(runs.bm25_tasks['q-smtp'][0]).toBe('src/mail/smtp-sender.ts');
    expect(runs.bm25_tasks['q-geo']).not.toContain('src/geo/haversine.py');
    expect(runs.fts5_bm25['q-geo'][0]).toBe('src/geo/haversine.py');
    for (const q of QUERIES) {
      const score = new Map<string, number>();
      for (const leg of [runs.fts5_bm25[q.id], runs.bm25_tasks[q.id]]) leg.forEach((p, i) => score.set(p, (score.get(p) ?? 0) + 1 / (60 + i + 1)));
      const expected = [...score.entries()].sort((a, b) => b[1] - a[1]).map(([p]) => p);
      expect(new Set(runs.bm25_rrf[q.id])).toEqual(new Set(expected));
      expect(runs.bm25_rrf[q.id][0]).toBe(expected[0]);
    }
  });

  it('prints per-phase timings, works in a folder of the data dir and reads no meta.json it was not given', () => {
    expect(run.stderr).toMatch(/Phases: index \d+\.\d\d s, tasks \d+\.\d\d s, ranker \d+\.\d\d s, queries \d+\.\d\d s, baseline \d+\.\d\d s/);
    const dataDir = /Data dir: (.+)/.exec(run.stderr)?.[1];
    expect(dataDir?.startsWith(path.join(serverData, 'eval-runs') + path.sep)).toBe(true);
    expect(fs.existsSync(dataDir!)).toBe(false); // thrown away afterwards
    expect(run.stdout).not.toContain('stray-meta-repo');
  });

  it('accepts --top-k 100 and refuses 101', async () => {
    const ok = await runCli(['eval', 'run', '--corpus', path.join(datasetDir, 'corpus'), '--tasks', path.join(datasetDir, 'tasks.jsonl'), '--queries', path.join(datasetDir, 'queries.jsonl'), '--strategies', 'file_only', '--top-k', '100', '--json', path.join(out, 'k100.json')], { DATABASE_URL: '', SEXTANT_DATA_DIR: serverData }, 120000);
    expect({ code: ok.code, stderr: ok.code === 0 ? '' : ok.stderr }).toEqual({ code: 0, stderr: '' });
    // All 16 corpus files can come back when 100 are asked for (the API's old cap was 50).
    expect((await readRunFile(path.join(out, 'k100.json'))).runs.file_only['q-geo'].length).toBeGreaterThan(0);
    const bad = await runCli(['eval', 'run', '--dataset', datasetDir, '--top-k', '101'], { DATABASE_URL: '', SEXTANT_DATA_DIR: serverData });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/--top-k must be an integer from 1 to 100/);
  }, 150000);

  it('a query the API refuses (over 66,000 characters) fails alone: the run finishes and names it', async () => {
    const huge = { id: 'q-huge', query: `Invoice totals are wrong\n\n${'invoice rounding currency '.repeat(2_700)}`, relevant: ['src/billing/invoice.ts'], type: 'conceptual' };
    expect(huge.query.length).toBeGreaterThan(66_000);
    const queries = path.join(base, 'huge-queries.jsonl');
    fs.writeFileSync(queries, jsonl([QUERIES[0], huge]));
    const res = await runCli(['eval', 'run', '--corpus', path.join(datasetDir, 'corpus'), '--tasks', path.join(datasetDir, 'tasks.jsonl'), '--queries', queries, '--strategies', 'file_only,bm25_rrf', '--json', path.join(out, 'huge.json')], { DATABASE_URL: '', SEXTANT_DATA_DIR: serverData }, 120000);
    expect({ code: res.code, stderr: res.code === 0 ? '' : res.stderr }).toEqual({ code: 0, stderr: '' });
    expect(res.stderr).toMatch(/1 searches failed \(scored as empty lists\)/);
    expect(res.stderr).toMatch(/file_only q-huge: refused: query: query is longer than 66000 characters/);
    const runFile = await readRunFile(path.join(out, 'huge.json'));
    expect(runFile.runs.file_only['q-vat'][0]).toBe('src/billing/invoice.ts');
    expect(runFile.runs.file_only['q-huge']).toBeUndefined();
    // The baseline is not the API: it still searches the whole text.
    expect(runFile.runs.bm25_rrf['q-huge'][0]).toBe('src/billing/invoice.ts');
  }, 150000);

  it('reads a history another tool wrote: git-style dates, numeric ids, a whole message in the title, an empty title', async () => {
    const foreign = [
      { id: 101, title: 'Round VAT on invoice totals per currency\n\nInvoice totals were off by a cent for euro amounts.', files: ['src/billing/invoice.ts'], created_at: '2023-01-02 09:00:00 +0200' },
      { id: 102, title: '', body: 'Retry SMTP delivery while the mailbox is busy\nRemote mailbox answers 450.', files: ['src/mail/smtp-sender.ts'], created_at: 1672704000 },
      { id: 'c0ffee', title: 'Resize thumbnails to square jpeg', body: '', files: ['src/render/thumbnail.ts'], created_at: 'Wed Jan 4 10:00:00 2023 +0100' },
    ];
    const tasks = path.join(base, 'foreign-tasks.jsonl');
    fs.writeFileSync(tasks, jsonl(foreign));
    const res = await runCli(['eval', 'run', '--corpus', path.join(datasetDir, 'corpus'), '--tasks', tasks, '--queries', path.join(datasetDir, 'queries.jsonl'), '--strategies', 'task_only', '--json', path.join(out, 'foreign.json')], { DATABASE_URL: '', SEXTANT_DATA_DIR: serverData }, 120000);
    expect({ code: res.code, stderr: res.code === 0 ? '' : res.stderr }).toEqual({ code: 0, stderr: '' });
    expect(res.stderr).toMatch(/Imported tasks: 3 new, 0 updated, 0 skipped/);
    const runs = (await readRunFile(path.join(out, 'foreign.json'))).runs.task_only;
    expect(runs['q-vat'][0]).toBe('src/billing/invoice.ts');
    expect(runs['q-smtp'][0]).toBe('src/mail/smtp-sender.ts');
  }, 150000);

  it('a history whose every task is refused fails the run with the first reason, instead of measuring code search alone', async () => {
    const tasks = path.join(base, 'refused-tasks.jsonl');
    fs.writeFileSync(tasks, jsonl(TASKS.map((t) => ({ ...t, files: Array.from({ length: 2001 }, (_, i) => `src/gen/f${i}.ts`) }))));
    const res = await runCli(['eval', 'run', '--corpus', path.join(datasetDir, 'corpus'), '--tasks', tasks, '--queries', path.join(datasetDir, 'queries.jsonl'), '--strategies', 'task_only'], { DATABASE_URL: '', SEXTANT_DATA_DIR: serverData }, 120000);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/None of the 3 tasks could be imported \(line 1, t-vat: files: .*2000/);
  }, 150000);

  it('--simulate-ratings rates the first queries\' relevant results, refits, and scores only the rest', async () => {
    const res = await runCli(['eval', 'run', '--dataset', datasetDir, '--strategies', 'weighted_default', '--simulate-ratings', '1', '--json', path.join(out, 'rated.json')], { DATABASE_URL: '', SEXTANT_DATA_DIR: serverData }, 120000);
    expect({ code: res.code, stderr: res.code === 0 ? '' : res.stderr }).toEqual({ code: 0, stderr: '' });
    expect(res.stderr).toMatch(/Simulated ratings: 1 relevant results rated \+1; refitted ranker:/);
    expect(res.stderr).toMatch(/Phases: index [\d.]+ s, tasks [\d.]+ s, ranker [\d.]+ s, ratings [\d.]+ s, queries/);
    expect(res.stdout).toMatch(/the scores cover the other 2/);
    const runFile = await readRunFile(path.join(out, 'rated.json'));
    expect(Object.keys(runFile.runs.weighted_default).sort()).toEqual(['q-geo', 'q-smtp']);
    const none = await runCli(['eval', 'run', '--dataset', datasetDir, '--simulate-ratings', '3'], { DATABASE_URL: '', SEXTANT_DATA_DIR: serverData });
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/--simulate-ratings 3 leaves no query to score \(3 have relevant files\)/);
    const bad = await runCli(['eval', 'run', '--dataset', datasetDir, '--simulate-ratings', 'some'], { DATABASE_URL: '', SEXTANT_DATA_DIR: serverData });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/--simulate-ratings must be a whole number/);
  }, 150000);

  it('prints the tables and writes a report with its SVG chart', () => {
    for (const heading of ['## Overall', '## By query type', '## Significance vs bm25_rrf', '## Latency', '## Complementarity and coverage']) expect(run.stdout).toContain(heading);
    const report = fs.readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(report).toContain('![Overall metrics by strategy](report.svg)');
    expect(report).toMatch(/\| rrf \| 3 \|/);
    const svg = fs.readFileSync(path.join(out, 'report.svg'), 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('task_only');
  });

  it('--publish stores the scores and chart in the server\'s workspace, served at /v1/eval/reports', async () => {
    expect(run.stderr).toMatch(/Published report [0-9a-f-]{36} to workspace default/);
    const t = await startTestApp({ env: { SEXTANT_DATA_DIR: serverData, DATABASE_URL: '' } });
    try {
      const api = () => request(t.app.getHttpServer());
      const latest = EvalReportSchema.parse((await api().get('/v1/eval/reports/latest').expect(200)).body);
      const { runs } = await readRunFile(path.join(out, 'run.json'));
      expect(latest.strategies.map((s) => s.name)).toEqual(Object.keys(runs));
      const task = latest.strategies.find((s) => s.name === 'task_only')!;
      expect(task.r10).toBeCloseTo(2 / 3, 6);
      expect(task.acc1).toBeCloseTo(2 / 3, 6);
      const baseline = latest.strategies.find((s) => s.name === 'bm25_rrf')!;
      expect(baseline.r10_delta).toBeNull();
      const rrf = latest.strategies.find((s) => s.name === 'rrf')!;
      expect(rrf.r10).toBe(scoreRun(runs.rrf, QUERIES).overall.r10);
      expect(rrf.r10_delta).toBeCloseTo(rrf.r10 - baseline.r10, 6);
      expect(latest).toMatchObject({ queries: QUERIES.length, baseline: 'bm25_rrf', default_strategy: 'weighted_default' });
      expect(latest.chart_svg).toBe(fs.readFileSync(path.join(out, 'report.svg'), 'utf8'));
      const list = EvalReportListResponseSchema.parse((await api().get('/v1/eval/reports').expect(200)).body);
      expect(list.reports.map((r) => r.id)).toEqual([latest.id]);
      expect((list.reports[0] as Record<string, unknown>).chart_svg).toBeUndefined();
      await api().get(`/v1/eval/reports/${latest.id}`).expect(200);
      await api().get('/v1/eval/reports/00000000-0000-4000-8000-000000000000').expect(404);
      await api().get('/v1/eval/reports/not-a-uuid').expect(400);
      // Reports belong to the workspace they were published to.
      const other = await t.app.get(WorkspacesService).create('other');
      await expect(t.app.get(EvalReportsService).latest(other.id)).rejects.toThrow(/No evaluation report has been published to this workspace/);
    } finally {
      await t.close();
    }
  });

  it('--publish to a workspace that does not exist fails before evaluating', async () => {
    const bad = await runCli(['eval', 'run', '--dataset', datasetDir, '--publish', 'no-such-space'], { DATABASE_URL: '', SEXTANT_DATA_DIR: serverData });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/--publish no-such-space: .*no-such-space/);
    expect(bad.stderr).not.toMatch(/Evaluated/);
  });

  it('refuses an unknown strategy with a clear message', async () => {
    const bad = await runCli(['eval', 'run', '--dataset', datasetDir, '--strategies', 'rrf,magic'], { DATABASE_URL: '' });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/Unknown strategy "magic"/);
  });
});

describe('sextant eval make-dataset', () => {
  const repo = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-eval-git-')));
  const out = path.join(os.tmpdir(), `sextant-eval-ds-${process.pid}`);
  afterAll(() => {
    fs.rmSync(repo, { recursive: true, force: true });
    fs.rmSync(out, { recursive: true, force: true });
  });

  it('turns commits before the cutoff into tasks and later modifications into queries', async () => {
    git(repo, 'init', '-q', '-b', 'main');
    const commit = (message: string, files: Record<string, string>) => {
      writeFiles(repo, files);
      git(repo, 'add', '-A');
      git(repo, 'commit', '-q', '-m', message);
      return git(repo, 'rev-parse', 'HEAD').trim();
    };
    commit('Add session store', { 'lib/session.js': 'exports.create = () => 1;\n' });
    const cutoff = commit('Add cookie parser', { 'lib/cookie.js': 'exports.parse = (s) => s;\n' });
    commit('Fix session expiry in create', { 'lib/session.js': 'exports.create = () => Date.now();\n' });

    const res = await runCli(['eval', 'make-dataset', '--git', repo, '--out', out, '--cutoff', cutoff, '--json']);
    expect(res.code).toBe(0);
    const meta = JSON.parse(res.stdout.trim().split('\n').pop()!);
    expect(meta.cutoff_sha).toBe(cutoff);
    const ds = await readDataset(out);
    expect(ds.tasks.map((t) => t.title).sort()).toEqual(['Add cookie parser', 'Add session store']);
    expect(ds.queries).toHaveLength(1);
    expect(ds.queries[0].relevant).toEqual(['lib/session.js']);
    expect(fs.existsSync(path.join(out, 'corpus', 'lib', 'cookie.js'))).toBe(true);
  });

  it('asks issue reports when given an issues file, and names its bad lines', async () => {
    const fix = git(repo, 'rev-parse', 'HEAD').trim();
    const issues = path.join(out, '..', `sextant-issues-${process.pid}.jsonl`);
    fs.writeFileSync(issues, `${JSON.stringify({ id: 42, title: 'Sessions never expire', body: 'create() returns 1 forever', fixed_by: [fix.slice(0, 9)] })}\n`);
    const res = await runCli(['eval', 'make-dataset', '--git', repo, '--out', out, '--issues', issues, '--overwrite', '--json']);
    expect(res.code).toBe(0);
    const meta = JSON.parse(res.stdout.trim().split('\n').pop()!);
    // Default cutoff: the fix's parent, so the history is everything before the fix.
    expect(meta.cutoff_sha).toBe(git(repo, 'rev-parse', `${fix}^`).trim());
    const ds = await readDataset(out);
    expect(ds.queries).toEqual([{ id: '42', query: 'Sessions never expire\n\ncreate() returns 1 forever', relevant: ['lib/session.js'], type: expect.any(String) }]);

    fs.writeFileSync(issues, `${JSON.stringify({ id: 43, title: 'No fix named' })}\n`);
    const bad = await runCli(['eval', 'make-dataset', '--git', repo, '--out', out, '--issues', issues, '--overwrite']);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/1 invalid line\(s\):\n\s+line 1: fixed_by/);
    fs.rmSync(issues, { force: true });
  });

  it('names the problem when the repository does not exist', async () => {
    const res = await runCli(['eval', 'make-dataset', '--git', path.join(repo, 'nope'), '--out', out]);
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/no such directory/);
  });
});
