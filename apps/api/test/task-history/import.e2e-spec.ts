import { rmSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { TaskImportResultSchema } from '@sextant/contracts';
import { TasksRepository } from '../../src/modules/task-history/tasks.repository';
import { WorkspacesService } from '../../src/modules/workspaces/workspaces.service';
import { git, makeFixtureRepo, writeFiles } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';

/** `POST /v1/tasks/import` (the dashboard's import; `sextant tasks import` calls the same service). */
describe('task import from JSONL and CSV (real app)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const importFile = (body: Record<string, unknown>) => request(t.app.getHttpServer()).post('/v1/tasks/import').send(body);
  const listed = async (source: string) => (await request(t.app.getHttpServer()).get('/v1/tasks').query({ source, limit: 200 }).expect(200)).body.tasks as Array<{ external_id: string; title: string; files: string[] }>;

  it('imports the good JSONL lines and reports each bad one by its line number', async () => {
    const content = [
      JSON.stringify({ id: 'J-1', title: 'Fix token refresh', files: ['src/auth/session.ts'] }),
      '',
      '{"id": "J-2", "title": "broken', // invalid JSON
      JSON.stringify({ id: 'J-3' }), // no title
      JSON.stringify({ id: 'J-4', title: 'Speed up search', body: 'p95 too high', files: ['src/search.ts', 'src/rank.ts'] }),
    ].join('\n');
    const res = await importFile({ format: 'jsonl', content, source: 'jsonl-test' }).expect(201);
    const result = TaskImportResultSchema.parse(res.body);
    expect(result).toMatchObject({ imported: 2, updated: 0, skipped: 2 });
    expect(result.errors.map((e) => e.line).sort()).toEqual([3, 4]);
    expect(result.errors.find((e) => e.line === 3)!.message).toMatch(/invalid JSON/);
    expect(result.errors.find((e) => e.line === 4)!.message).toMatch(/title/);
    const tasks = await listed('jsonl-test');
    expect(tasks.map((x) => x.external_id).sort()).toEqual(['J-1', 'J-4']);
    expect(tasks.find((x) => x.external_id === 'J-4')!.files.sort()).toEqual(['src/rank.ts', 'src/search.ts']);

    // The same file again updates instead of duplicating.
    const again = TaskImportResultSchema.parse((await importFile({ format: 'jsonl', content, source: 'jsonl-test' }).expect(201)).body);
    expect(again).toMatchObject({ imported: 0, updated: 2, skipped: 2 });
    expect(await listed('jsonl-test')).toHaveLength(2);
  });

  it('refuses a JSON array with a hint on converting it, and imports nothing', async () => {
    const content = JSON.stringify([{ id: 'A-1', title: 'one' }, { id: 'A-2', title: 'two' }], null, 2);
    const res = await importFile({ format: 'jsonl', content, source: 'array-test' }).expect(400);
    expect(res.body).toMatchObject({ code: 'invalid_input', detail: expect.stringMatching(/JSON array.*JSONL.*jq -c/) });
    expect(await listed('array-test')).toEqual([]);
  });

  it('imports CSV through a column mapping, and names the columns when a mapped one is missing', async () => {
    const csv = ['key,summary,changed', 'C-1,Handle empty orders,"src/orders.ts;src/cart.ts"', 'C-2,,src/x.ts', 'C-3,Retry on 503,src/http.ts'].join('\n');
    const res = await importFile({ format: 'csv', content: csv, source: 'csv-test', columns: { id: 'key', title: 'summary', files: 'changed' } }).expect(201);
    const result = TaskImportResultSchema.parse(res.body);
    expect(result).toMatchObject({ imported: 2, skipped: 1 });
    expect(result.errors).toEqual([expect.objectContaining({ line: 3 })]); // the header is line 1
    expect((await listed('csv-test')).find((x) => x.external_id === 'C-1')!.files.sort()).toEqual(['src/cart.ts', 'src/orders.ts']);

    const missing = await importFile({ format: 'csv', content: csv, source: 'csv-test', columns: { id: 'key', title: 'title' } }).expect(400);
    expect(missing.body.detail).toMatch(/no column "title".*key, summary, changed/);
  });

  it('leaves an optional field empty when its column is mapped to null, even if a column has the field\'s name', async () => {
    const csv = ['id,title,body,status,files', 'N-1,Keep the body out,internal notes,wontfix,src/a.ts'].join('\n');
    await importFile({ format: 'csv', content: csv, source: 'csv-null', columns: { body: null, status: null } }).expect(201);
    expect((await listed('csv-null'))[0]).toMatchObject({ external_id: 'N-1', body: '', status: null, files: ['src/a.ts'] });
    const refused = await importFile({ format: 'csv', content: csv, source: 'csv-null', columns: { id: null } }).expect(400);
    expect(JSON.stringify(refused.body)).toContain('columns.id');
  });

  it('redacts tokens pasted into a task before it is stored, shown or searched', async () => {
    // Built at run time so this file does not itself look like it holds a secret.
    const token = `ghp_${'aB3'.repeat(12)}`;
    const content = JSON.stringify({ id: 'S-1', title: `Rotate ${token} after the leak`, body: `CI printed GITHUB_TOKEN=${token} in the deploy log`, files: ['ci/deploy.yml'] });
    await importFile({ format: 'jsonl', content, source: 'secret-test' }).expect(201);
    const [task] = await listed('secret-test');
    expect(task.title).toBe('Rotate [REDACTED] after the leak');
    const stored = (await request(t.app.getHttpServer()).get('/v1/tasks').query({ source: 'secret-test' }).expect(200)).text;
    expect(stored).not.toContain(token);
    expect(stored).toContain('GITHUB_TOKEN=[REDACTED] in the deploy log');
    // Similar-task search reads the index, not the table.
    const found = await request(t.app.getHttpServer()).get('/v1/tasks').query({ query: 'rotate leak deploy log' }).expect(200);
    expect(found.body.tasks.map((x: { title: string }) => x.title)).toContain('Rotate [REDACTED] after the leak');
    expect(found.text).not.toContain(token);
  });
  it('a CSV date nobody can read is an error on its line; the other rows and their dates (read as JSONL reads them, no offset = UTC) are kept', async () => {
    const csv = ['id,title,files,created_at', 'D-1,Fix rounding,src/money.ts,2024-03-01 10:00', 'D-2,Fix totals,src/total.ts,not-a-date', 'D-3,Fix tax,src/tax.ts,2024-03-02T08:00:00+02:00'].join('\n');
    const res = await importFile({ format: 'csv', content: csv, source: 'csv-dates', columns: { id: 'id', title: 'title', files: 'files', created_at: 'created_at' } }).expect(201);
    const result = TaskImportResultSchema.parse(res.body);
    expect(result).toMatchObject({ imported: 2, skipped: 1 });
    expect(result.errors).toEqual([expect.objectContaining({ line: 3, id: 'D-2', message: expect.stringMatching(/created_at/) })]);
    const tasks = (await request(t.app.getHttpServer()).get('/v1/tasks').query({ source: 'csv-dates' }).expect(200)).body.tasks as Array<{ external_id: string; created_at: string }>;
    expect(Object.fromEntries(tasks.map((x) => [x.external_id, x.created_at]))).toEqual({ 'D-1': '2024-03-01T10:00:00.000Z', 'D-3': '2024-03-02T06:00:00.000Z' });
  });

  it('a JSONL history keeps dates in the forms tools export them (git %ci, no offset, Unix seconds, null) and names a line whose date is none', async () => {
    const lines = [
      { id: 'J-1', title: 'Fix rounding', created_at: '2024-03-01 12:00:00 +0200' },
      { id: 'J-2', title: 'Fix totals', created_at: '2024-03-01T12:00:00' },
      { id: 'J-3', title: 'Fix tax', created_at: 1709294400 },
      { id: 'J-4', title: 'Fix labels', created_at: null },
      { id: 'J-5', title: 'Fix nothing', created_at: 'last tuesday' },
    ];
    const res = await importFile({ format: 'jsonl', content: lines.map((l) => JSON.stringify(l)).join('\n'), source: 'jsonl-dates' }).expect(201);
    const result = TaskImportResultSchema.parse(res.body);
    expect(result).toMatchObject({ imported: 4, skipped: 1 });
    expect(result.errors).toEqual([expect.objectContaining({ line: 5, id: 'J-5', message: 'created_at: not a date: "last tuesday" (use ISO 8601, e.g. 2024-03-01T12:00:00Z, or Unix seconds)' })]);
    const tasks = (await request(t.app.getHttpServer()).get('/v1/tasks').query({ source: 'jsonl-dates' }).expect(200)).body.tasks as Array<{ external_id: string; created_at: string | null }>;
    expect(Object.fromEntries(tasks.map((x) => [x.external_id, x.created_at]))).toEqual({ 'J-1': '2024-03-01T10:00:00.000Z', 'J-2': '2024-03-01T12:00:00.000Z', 'J-3': '2024-03-01T12:00:00.000Z', 'J-4': null });
  });

  it('reads a file saved on Windows (byte-order mark, CRLF, backslashed or ./ paths) as the index names its files, and refuses a path outside the repository on its line', async () => {
    const lines = [
      { id: 'W-1', title: 'Fix rounding', files: ['.\\src\\billing\\round.py', 'src//billing/../billing/tax.py'] },
      { id: 'W-2', title: 'Fix totals', files: ['./src/billing/round.py', 'src/billing/round.py'] },
      { id: 'W-3', title: 'Read secrets', files: ['src/ok.py', '../../etc/passwd'] },
      { id: 'W-4', title: 'Read more secrets', files: ['C:\\Users\\me\\app.py'] },
    ];
    const content = `\uFEFF${lines.map((l) => JSON.stringify(l)).join('\r\n')}\r\n`;
    const result = TaskImportResultSchema.parse((await importFile({ format: 'jsonl', content, source: 'jsonl-windows' }).expect(201)).body);
    expect(result).toMatchObject({ imported: 2, skipped: 2 });
    expect(result.errors).toEqual([
      expect.objectContaining({ line: 3, id: 'W-3', message: expect.stringMatching(/^files\.1: not a path inside the repository: "\.\.\/\.\.\/etc\/passwd"/) }),
      expect.objectContaining({ line: 4, id: 'W-4', message: expect.stringMatching(/^files\.0: not a path inside the repository/) }),
    ]);
    const tasks = await listed('jsonl-windows');
    expect(Object.fromEntries(tasks.map((x) => [x.external_id, x.files.sort()]))).toEqual({ 'W-1': ['src/billing/round.py', 'src/billing/tax.py'], 'W-2': ['src/billing/round.py'] });

    const csv = '\uFEFFid,title,files\r\nC-1,Fix export,"src\\export\\csv.py|./src/export/xlsx.py"\r\n';
    expect(TaskImportResultSchema.parse((await importFile({ format: 'csv', content: csv, source: 'csv-windows', columns: { id: 'id', title: 'title', files: 'files' } }).expect(201)).body)).toMatchObject({ imported: 1, skipped: 0 });
    expect((await listed('csv-windows'))[0].files.sort()).toEqual(['src/export/csv.py', 'src/export/xlsx.py']);
  });

  it('a duplicate id in one bulk POST or file is a line error, not a 500; the first copy is stored', async () => {
    const bulk = await request(t.app.getHttpServer())
      .post('/v1/tasks')
      .send({ tasks: [{ id: 'U-1', title: 'First copy', source: 'dup-test' }, { id: 'U-2', title: 'Other', source: 'dup-test' }, { id: 'U-1', title: 'Second copy', source: 'dup-test' }] });
    expect(bulk.status).toBe(201);
    expect(TaskImportResultSchema.parse(bulk.body)).toMatchObject({ imported: 2, skipped: 1, errors: [expect.objectContaining({ line: 3, id: 'U-1', message: expect.stringMatching(/duplicate id/) })] });
    const content = [JSON.stringify({ id: 'U-3', title: 'Once' }), '', JSON.stringify({ id: 'U-3', title: 'Twice' })].join('\n');
    const file = await importFile({ format: 'jsonl', content, source: 'dup-test' }).expect(201);
    expect(file.body).toMatchObject({ imported: 1, skipped: 1, errors: [expect.objectContaining({ line: 3, id: 'U-3' })] });
    expect((await listed('dup-test')).map((x) => x.title).sort()).toEqual(['First copy', 'Once', 'Other']);
  });

  it('orders the history the same way on every import: tasks of the same second by their own id', async () => {
    // Commits of one second (a rebase, a merge) imported in one batch tie on both dates.
    const ids = ['c9f0', '1ab2', 'e771', '05d3', '8b4e', '3c6a', 'f012', '6d7e'];
    const content = ids.map((id) => JSON.stringify({ id, title: `same second ${id}`, files: [`src/${id}.ts`], created_at: '2024-05-01T12:00:00Z' })).join('\n');
    await importFile({ format: 'jsonl', content, source: 'same-second' }).expect(201);
    const workspace = await t.app.get(WorkspacesService).ensureDefault();
    const history = await t.app.get(TasksRepository).listHistory(workspace.id);
    const order = history.filter((h) => h.files[0]?.startsWith('src/') && ids.some((id) => h.files[0] === `src/${id}.ts`)).map((h) => h.files[0].slice(4, -3));
    expect(order).toEqual([...ids].sort());
  });

  it('follows paths that moved before the code was indexed to the files that hold them today', async () => {
    // A history written by another tool: no rename records, the package later moved under src/.
    const root = makeFixtureRepo({
      'src/shop/cart.py': 'def add_item(cart, item):\n    cart.append(item)\n',
      'src/shop/_checkout.py': 'def pay(cart):\n    return sum(cart)\n',
      'tests/test_cart.py': 'def test_add_item():\n    pass\n',
      'docs/cart.md': '# Cart\n',
    });
    const reg = await request(t.app.getHttpServer()).post('/v1/repos').send({ path: root, name: 'moved-shop' }).expect(201);
    await waitFor(async () => (await request(t.app.getHttpServer()).get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'index job' });
    const content = [
      { id: 'M-1', title: 'Cart drops the last item', files: ['shop/cart.py', 'shop/testsuite/cart.py'], created_at: '2020-01-01T00:00:00Z' },
      { id: 'M-2', title: 'Checkout rounds totals', files: ['shop/checkout.py', 'shop/cart.py'], created_at: '2020-02-01T00:00:00Z' },
      { id: 'M-3', title: 'Move the package under src/', files: ['src/shop/cart.py', 'src/shop/_checkout.py', 'tests/test_cart.py'], created_at: '2021-01-01T00:00:00Z' },
      { id: 'M-4', title: 'Remove the old admin page', files: ['shop/admin.py'], created_at: '2021-02-01T00:00:00Z' },
    ]
      .map((x) => JSON.stringify(x))
      .join('\n');
    const result = TaskImportResultSchema.parse((await importFile({ format: 'jsonl', content, source: 'moved' }).expect(201)).body);
    expect(result).toMatchObject({ imported: 4, paths_followed: 3 });
    const files = Object.fromEntries((await listed('moved')).map((x) => [x.external_id, x.files.sort()]));
    expect(files['M-1']).toEqual(['src/shop/cart.py', 'tests/test_cart.py']);
    expect(files['M-2']).toEqual(['src/shop/_checkout.py', 'src/shop/cart.py']);
    // A file deleted with no successor keeps the name it had.
    expect(files['M-4']).toEqual(['shop/admin.py']);
  }, 60_000);

  it('import-git counts a module split out of a file in that file\'s earlier tasks, and not in its later ones', async () => {
    const commands = Array.from({ length: 30 }, (_, i) => `function command${i}(argv) { return parse(argv, ${i}); }`).join('\n');
    const helpers = Array.from({ length: 10 }, (_, i) => `function helper${i}() { return ${i}; }`).join('\n');
    const root = makeFixtureRepo({ 'index.js': `${commands}\n${helpers}\n` }, { git: true });
    writeFiles(root, { 'index.js': `${commands}\n${helpers}\nfunction parse() {}\n` });
    git(root, 'commit', '-q', '-am', 'Fix option parsing');
    writeFiles(root, { 'lib/command.js': `${commands}\n`, 'index.js': `const c = require('./lib/command');\n${helpers}\nfunction parse() {}\n` });
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'Refactor commands into lib/');
    writeFiles(root, { 'index.js': `const c = require('./lib/command');\n// helpers\n${helpers}\nfunction parse() {}\n` });
    git(root, 'commit', '-q', '-am', 'Document helpers');

    const reg = await request(t.app.getHttpServer()).post('/v1/repos').send({ path: root, name: 'split-cli' }).expect(201);
    await waitFor(async () => (await request(t.app.getHttpServer()).get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'index job' });
    await request(t.app.getHttpServer()).post('/v1/tasks/import-git').send({ repository_id: reg.body.id }).expect(201);
    const files = Object.fromEntries((await listed('git')).map((x) => [x.title, x.files.sort()]));
    expect(files['Fix option parsing']).toEqual(['index.js', 'lib/command.js']);
    expect(files['Document helpers']).toEqual(['index.js']);
  }, 60_000);

  it('import-git of a history missing old file contents imports every commit and says what it could not follow', async () => {
    const session = 'SESSION_TTL = 86400\n'.repeat(20);
    const root = makeFixtureRepo({ 'session.py': session, 'cache.py': 'CACHE = {}\n' }, { git: true });
    const born = git(root, 'rev-parse', 'HEAD').trim();
    git(root, 'mv', 'session.py', 'auth_session.py');
    git(root, 'mv', 'cache.py', 'store_cache.py');
    writeFiles(root, { 'auth_session.py': `${session}SESSION_SECURE = True\n` });
    git(root, 'commit', '-q', '-am', 'Move the session and cache modules');
    // As in a partial clone or a mirror missing a blob: the old session.py cannot be read.
    const blob = git(root, 'rev-parse', `${born}:session.py`).trim();
    rmSync(join(root, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));

    const reg = await request(t.app.getHttpServer()).post('/v1/repos').send({ path: root, name: 'missing-blob' }).expect(201);
    await waitFor(async () => (await request(t.app.getHttpServer()).get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'index job' });
    const res = await request(t.app.getHttpServer()).post('/v1/tasks/import-git').send({ repository_id: reg.body.id }).expect(201);
    const result = TaskImportResultSchema.parse(res.body);
    expect(result.imported).toBe(2);
    expect(result.warnings).toEqual([expect.stringMatching(/file contents of the history are missing/)]);
    const first = (await listed('git')).find((x) => x.external_id === born)!;
    // The unchanged move is followed to today's path; the edited one could not be.
    expect(first.files).toContain('store_cache.py');
  }, 60_000);
});
