import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readQueries, readRunFile, readTasks, writeRunFile } from './index';

describe('dataset and run-file I/O', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-io-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads FORMAT.md lines and names the file and line of a bad one', async () => {
    const path = join(dir, 'tasks.jsonl');
    writeFileSync(
      path,
      [
        '{"id": "3f2a9c1", "title": "Fix session cookie expiry", "body": "longer text, may be empty", "files": ["lib/session.js", "test/session.js"], "created_at": "2023-04-01T12:00:00Z"}',
        '',
        '{"id": "77", "title": "no files"}',
        'not json',
      ].join('\n'),
    );
    await expect(readTasks(path)).rejects.toThrow(/tasks\.jsonl has 2 invalid line\(s\):\n {2}line 3: files: .*\n {2}line 4: invalid JSON/);
    const tasks = await readTasks(path, { onInvalid: 'skip' });
    expect(tasks).toEqual([{ id: '3f2a9c1', title: 'Fix session cookie expiry', body: 'longer text, may be empty', files: ['lib/session.js', 'test/session.js'], created_at: '2023-04-01T12:00:00Z' }]);
  });

  it('reads queries and defaults a missing task body to empty', async () => {
    const q = join(dir, 'queries.jsonl');
    writeFileSync(q, '{"id": "9b1e0d4", "query": "title + body", "relevant": ["lib/router/index.js"], "type": "specific"}\n');
    expect(await readQueries(q)).toEqual([{ id: '9b1e0d4', query: 'title + body', relevant: ['lib/router/index.js'], type: 'specific' }]);
    const t = join(dir, 't2.jsonl');
    writeFileSync(t, '{"id": "a", "title": "x", "files": []}\n');
    expect((await readTasks(t))[0].body).toBe('');
  });

  it('round-trips the run file of FORMAT.md', async () => {
    const runFile = {
      runs: { task_only: { '9b1e0d4': ['lib/a.js', 'lib/b.js'] }, file_only: { '9b1e0d4': ['lib/b.js'] }, rrf: { '9b1e0d4': ['lib/b.js', 'lib/a.js'] } },
      latency_ms: { rrf: { '9b1e0d4': 12.1 } },
    };
    const path = join(dir, 'out', 'run.json');
    await writeRunFile(path, runFile);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(runFile);
    expect(await readRunFile(path)).toEqual(runFile);
  });

  it('rejects a malformed run file with the offending path', async () => {
    const path = join(dir, 'bad-run.json');
    writeFileSync(path, JSON.stringify({ runs: { rrf: { q1: 'lib/a.js' } } }));
    await expect(readRunFile(path)).rejects.toThrow(/not a valid run file: runs\.rrf\.q1/);
    await expect(readRunFile(join(dir, 'missing.json'))).rejects.toThrow(/Cannot read run file/);
  });
});
