import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { readStoredChunks } from '../helpers/fixture-repo';
import { runCli, spawnCli } from '../helpers/spawn-cli';
import { waitFor } from '../helpers/wait';

/** A few thousand small, varied source files. */
function generateCorpus(root: string, files: number): void {
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, `pkg${i % 40}`);
    fs.mkdirSync(dir, { recursive: true });
    const body =
      i % 3 === 0
        ? `export class Service${i} {\n  constructor(private readonly n = ${i}) {}\n  handle${i}(input: string): string {\n    return input.repeat(this.n % 3);\n  }\n}\n`
        : i % 3 === 1
          ? `def compute_${i}(x):\n    """Computes value ${i}."""\n    return x * ${i}\n`
          : `export function helper${i}(a: number, b: number): number {\n  return a + b + ${i};\n}\n`;
    fs.writeFileSync(path.join(dir, `m${i}.${i % 3 === 1 ? 'py' : 'ts'}`), body);
  }
}

function indexedFiles(dataDir: string): number {
  const file = path.join(dataDir, 'sextant.sqlite');
  if (!fs.existsSync(file)) return 0;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM files WHERE state = 'indexed'`).get() as { n: number }).n;
  } catch {
    return 0; // tables not created yet
  } finally {
    db.close();
  }
}

/** The store's content independent of ids that embed the (random) workspace and repository ids. */
function storeSignature(dataDir: string): { chunks: string[]; files: Array<{ path: string; state: string; chunk_count: number }> } {
  const chunks = readStoredChunks(dataDir)
    .map((c) => `${c.path}|${c.chunkType}|${c.startLine}|${c.contentHash}`)
    .sort();
  const db = new Database(path.join(dataDir, 'sextant.sqlite'), { readonly: true });
  const files = db.prepare('SELECT path, state, chunk_count FROM files ORDER BY path').all() as Array<{ path: string; state: string; chunk_count: number }>;
  db.close();
  return { chunks, files };
}

describe('a job killed with SIGKILL resumes and ends exactly like a clean run', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-crash-')));
  const corpus = path.join(base, 'corpus');
  const FILES = 2400;
  beforeAll(() => generateCorpus(corpus, FILES));
  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));
  const env = (dataDir: string) => ({ SEXTANT_DATA_DIR: dataDir, SEXTANT_ALLOWED_ROOTS: base, DATABASE_URL: '' });

  it('kill -9 at several points, then restart', async () => {
    const clean = path.join(base, 'clean');
    const cleanRun = await runCli(['index', corpus, '--json'], env(clean), 240000);
    expect(cleanRun.code).toBe(0);
    // The job says where its time went, phase by phase.
    const cleanJob = JSON.parse(cleanRun.stdout.trim().split('\n').pop()!) as { counts: { phaseMs: Record<string, number> } };
    for (const phase of ['discover', 'parse', 'embed', 'write']) expect(cleanJob.counts.phaseMs[phase]).toBeGreaterThan(0);
    const reference = storeSignature(clean);
    expect(reference.files).toHaveLength(FILES);

    const crashed = path.join(base, 'crashed');
    const killPoints = [0, 0.3, 0.7]; // fraction of files indexed when the process is killed
    for (const point of killPoints) {
      const child = spawnCli(['index', corpus], env(crashed));
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      const threshold = Math.floor(point * FILES);
      const start = indexedFiles(crashed);
      await waitFor(() => (point === 0 ? fs.existsSync(path.join(crashed, 'vectors.sqlite')) : indexedFiles(crashed) > Math.max(threshold, start)), {
        what: `progress past ${point * 100}%`,
        intervalMs: 20,
        timeoutMs: 120000,
      });
      child.kill('SIGKILL');
      await exited;
      expect(indexedFiles(crashed)).toBeLessThan(FILES);
    }
    const resumed = await runCli(['index', corpus, '--json'], env(crashed), 240000);
    expect(resumed.code).toBe(0);
    const resumedJob = JSON.parse(resumed.stdout.trim().split('\n').pop()!) as { status: string; resumed: boolean; counts: Record<string, number> };
    expect(resumedJob).toMatchObject({ status: 'succeeded', resumed: true });

    const result = storeSignature(crashed);
    // The job's counters tell what the index holds, however many attempts it took.
    const { discovered, toIndex, processed, indexed, failed, unchanged, chunks } = resumedJob.counts;
    expect({ discovered, toIndex, processed, indexed, failed, unchanged, chunks }).toEqual({ discovered: FILES, toIndex: FILES, processed: FILES, indexed: FILES, failed: 0, unchanged: 0, chunks: reference.chunks.length });
    expect(result.files).toEqual(reference.files); // every file indexed, with its chunk count
    expect(result.chunks).toEqual(reference.chunks); // same chunks: no duplicates, no orphans, none missing
    const ids = readStoredChunks(crashed).map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  }, 600000);
});
