import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WalCheckpointer } from './wal-checkpointer';

describe('WalCheckpointer', () => {
  let dir: string;
  let file: string;
  let db: Database.Database;
  const walBytes = () => statSync(`${file}-wal`).size;
  const insert = (rows: number) => {
    const stmt = db.prepare('INSERT INTO t (body) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < rows; i++) stmt.run('x'.repeat(2000));
    })();
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sextant-wal-'));
    file = join(dir, 'db.sqlite');
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    // As if the commit path never checkpointed: only the worker can.
    db.pragma('wal_autocheckpoint = 0');
    db.pragma('journal_size_limit = 0'); // as the chunk store sets it
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)');
  });
  afterEach(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies the log back from its own thread, so later commits reuse it instead of growing it', async () => {
    const checkpointer = new WalCheckpointer(file, { minBytes: 64 * 1024, intervalMs: 60_000 });
    try {
      insert(500);
      const grown = walBytes();
      await checkpointer.checkpointNow();
      expect(checkpointer.stats).toMatchObject({ runs: 1, failures: 0 });
      expect(checkpointer.stats.lastCheckpointed).toBeGreaterThan(100);
      // Every frame is in the database file now: the next writer starts the log over.
      for (let round = 0; round < 5; round++) {
        insert(500);
        await checkpointer.checkpointNow();
      }
      expect(walBytes()).toBeLessThan(grown * 1.5);
      expect(checkpointer.stats.runs).toBe(6);
      // Another connection reading only the database file (no log) sees every row.
      db.close();
      const reader = new Database(file, { readonly: true });
      expect(reader.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 3000 });
      reader.close();
    } finally {
      await checkpointer.close();
    }
  });

  it('without it the same writes grow the log every round (the test above can fail)', () => {
    insert(500);
    const grown = walBytes();
    insert(500);
    expect(walBytes()).toBeGreaterThan(grown);
  });

  it('leaves a small or unchanged log alone and starts no thread for it', async () => {
    const checkpointer = new WalCheckpointer(file, { minBytes: 64 * 1024 * 1024, intervalMs: 60_000 });
    insert(50);
    await checkpointer.checkpointNow();
    expect(checkpointer.stats.runs).toBe(0);
    await checkpointer.close();

    const eager = new WalCheckpointer(file, { minBytes: 1, intervalMs: 60_000 });
    await eager.checkpointNow();
    await eager.checkpointNow(); // the log has not changed since
    expect(eager.stats.runs).toBe(1);
    await eager.close();
  });

  it('comes back for frames a reader still needed, without waiting for another write', async () => {
    const checkpointer = new WalCheckpointer(file, { minBytes: 1, intervalMs: 60_000 });
    insert(100);
    const reader = new Database(file, { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM t').get(); // holds a snapshot of the log as it is now
    insert(100);
    await checkpointer.checkpointNow();
    const partly = checkpointer.stats.lastCheckpointed;
    reader.exec('COMMIT');
    reader.close();
    await checkpointer.checkpointNow(); // the log has not changed since, but the last run left frames behind
    expect(checkpointer.stats.runs).toBe(2);
    expect(checkpointer.stats.lastCheckpointed).toBeGreaterThan(partly);
    await checkpointer.checkpointNow(); // now everything is copied: nothing to do until the next write
    expect(checkpointer.stats.runs).toBe(2);
    await checkpointer.close();
  });

  it('checkpoints on its own timer, and after close the last connection removes the log', async () => {
    const checkpointer = new WalCheckpointer(file, { minBytes: 1024, intervalMs: 20 });
    insert(200);
    const deadline = Date.now() + 5000;
    while (checkpointer.stats.runs === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(checkpointer.stats.runs).toBeGreaterThan(0);
    await checkpointer.close();
    db.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('reports a checkpoint it cannot run and keeps going', async () => {
    const errors: string[] = [];
    const checkpointer = new WalCheckpointer(join(dir, 'missing.sqlite'), { minBytes: 0, intervalMs: 60_000, onError: (err) => errors.push(err.message) });
    // A log without its database: the worker's connection cannot open.
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'missing.sqlite-wal'), 'not a log');
    await checkpointer.checkpointNow();
    expect(checkpointer.stats.failures).toBeGreaterThan(0);
    expect(errors.join('\n')).toMatch(/WAL checkpoint of .*missing\.sqlite failed: .*(unable to open|does not exist)/i);
    // The next one is tried again (the worker survived).
    writeFileSync(join(dir, 'missing.sqlite-wal'), 'still not a log');
    await checkpointer.checkpointNow();
    expect(checkpointer.stats.failures).toBe(2);
    await checkpointer.close();
  });
});
