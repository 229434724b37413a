import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readQueries, readRunFile, readTasks, taskImportInput, writeRunFile } from './index';

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
    expect(tasks).toEqual([{ id: '3f2a9c1', title: 'Fix session cookie expiry', body: 'longer text, may be empty', files: ['lib/session.js', 'test/session.js'], created_at: '2023-04-01T12:00:00.000Z' }]);
  });

  it('reads the dates and ids other tools write, as UTC ISO dates and string ids, and names a line whose date is none', async () => {
    const forms: Array<[unknown, string | undefined]> = [
      ['2023-04-01T14:00:00+02:00', '2023-04-01T12:00:00.000Z'],
      ['2023-04-01 14:00:00 +0200', '2023-04-01T12:00:00.000Z'], // git log --format=%ci
      ['2023-04-01T12:00:00', '2023-04-01T12:00:00.000Z'], // no offset: UTC
      ['2023-04-01 12:00', '2023-04-01T12:00:00.000Z'],
      ['2023-04-01', '2023-04-01T00:00:00.000Z'],
      ['Sat Apr 1 14:00:00 2023 +0200', '2023-04-01T12:00:00.000Z'], // git's default format
      ['Sat, 01 Apr 2023 14:00:00 +0200', '2023-04-01T12:00:00.000Z'], // RFC 2822
      [1680350400, '2023-04-01T12:00:00.000Z'], // Unix seconds
      ['1680350400', '2023-04-01T12:00:00.000Z'],
      [1680350400000, '2023-04-01T12:00:00.000Z'], // milliseconds
      [null, undefined],
      ['', undefined],
    ];
    const path = join(dir, 'dates.jsonl');
    writeFileSync(path, forms.map(([created_at], i) => JSON.stringify({ id: 100 + i, title: 't', files: [], created_at })).join('\n'));
    const tasks = await readTasks(path);
    expect(tasks.map((t) => t.created_at)).toEqual(forms.map(([, iso]) => iso));
    expect(tasks[0].id).toBe('100');
    for (const bad of ['yesterday', '2023-02-30', '2023-13-01T00:00:00Z', '01/04/2023']) {
      writeFileSync(path, `{"id": "a", "title": "t", "files": []}\n${JSON.stringify({ id: 'b', title: 't', files: [], created_at: bad })}\n`);
      await expect(readTasks(path)).rejects.toThrow(new RegExp(`line 2: created_at: not a date: "${bad.replace(/[/]/g, '\\/')}" \\(use ISO 8601`));
    }
  });

  it('gives the importer a title it accepts and loses no text: the first line of a whole message, or of the body when the title is empty', () => {
    expect(taskImportInput({ id: '1', title: 'Fix expiry\n\nCookies expired a day early.', body: '', files: ['a.js'] })).toEqual({ id: '1', title: 'Fix expiry', body: 'Cookies expired a day early.', files: ['a.js'] });
    expect(taskImportInput({ id: '2', title: '  ', body: '\nRetry SMTP\nwhen busy', files: [], files_at_cutoff: ['b.js'], created_at: '2023-01-01T00:00:00.000Z' })).toEqual({ id: '2', title: 'Retry SMTP', body: 'when busy', files: ['b.js'], created_at: '2023-01-01T00:00:00.000Z' });
    expect(taskImportInput({ id: '3', title: '', body: '', files: [] }).title).toBe('(no message)');
    const long = taskImportInput({ id: '4', title: 'x'.repeat(1500), body: 'rest', files: [] });
    expect(long.title).toHaveLength(1000);
    expect(long.body).toBe(`${'x'.repeat(500)}\n\nrest`);
  });

  it('reads queries and defaults a missing task body to empty', async () => {
    const q = join(dir, 'queries.jsonl');
    writeFileSync(q, '{"id": "9b1e0d4", "query": "title + body", "relevant": ["lib/router/index.js"], "type": "specific"}\n');
    expect(await readQueries(q)).toEqual([{ id: '9b1e0d4', query: 'title + body', relevant: ['lib/router/index.js'], type: 'specific' }]);
    // Another tool's query set: an integer id, no type.
    writeFileSync(q, '{"id": 42, "query": "title + body", "relevant": ["lib/router/index.js"]}\n');
    expect(await readQueries(q)).toEqual([{ id: '42', query: 'title + body', relevant: ['lib/router/index.js'], type: 'unlabelled' }]);
    const t = join(dir, 't2.jsonl');
    writeFileSync(t, '{"id": "a", "title": "x", "files": []}\n');
    expect((await readTasks(t))[0].body).toBe('');
  });

  it('reads paths as the corpus names them (Windows separators, ./, a byte-order mark) and names a line whose path leaves the repository', async () => {
    const q = join(dir, 'paths.jsonl');
    writeFileSync(q, '\uFEFF{"id": 1, "query": "q", "relevant": [".\\\\lib\\\\router\\\\index.js", "lib//a/../b.js"]}\r\n');
    expect((await readQueries(q))[0].relevant).toEqual(['lib/router/index.js', 'lib/b.js']);
    const t = join(dir, 'paths-tasks.jsonl');
    writeFileSync(t, '{"id": "a", "title": "x", "files": ["./lib/a.js"], "files_at_cutoff": ["lib\\\\b.js"]}\n{"id": "b", "title": "y", "files": ["../outside.js"]}\n');
    await expect(readTasks(t)).rejects.toThrow(/line 2: files\.0: not a path inside the repository: "\.\.\/outside\.js"/);
    expect(await readTasks(t, { onInvalid: 'skip' })).toEqual([{ id: 'a', title: 'x', body: '', files: ['lib/a.js'], files_at_cutoff: ['lib/b.js'] }]);
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
