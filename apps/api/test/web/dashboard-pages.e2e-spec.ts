/**
 * The dashboard pages a team uses every day, in a real browser (Debian chromium driven by
 * playwright-core) against the real app with API keys required: the file view and its
 * permalink, search state in the URL, weak matches, repository controls by role, failed
 * clones, the task list's filters, the settings page, and a 390 px wide window.
 * Screenshots land in /tmp/shots/ for people to look at.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import request from 'supertest';
import { bearer, createKey, KEYS_REQUIRED_ENV } from '../auth/auth-helpers';
import { git, makeFixtureRepo, SAMPLE_PROJECT } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';
import { RealtimeGateway } from '../../src/modules/realtime/realtime.gateway';

// Callbacks given to page.evaluate/waitForFunction run in the browser; the repository's
// tsconfig has no DOM lib, so these browser globals are declared for this file only.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any, window: any;

const CHROMIUM = '/usr/bin/chromium';
const REPO_ROOT = path.resolve(__dirname, '../../../..');
const WEB_DIST = path.join(REPO_ROOT, 'apps/web/dist/index.html');
const SHOTS = process.env.SEXTANT_SHOTS_DIR ?? '/tmp/shots';
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) console.warn(`dashboard pages e2e SKIPPED: ${CHROMIUM} is missing (install Debian's chromium package)`);
const describeBrowser = haveChromium ? describe : describe.skip;

jest.setTimeout(180_000);

async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });
}

/** `npm test` builds the dashboard first; a lone run builds it here when the build is missing. */
function ensureDashboardBuilt(): void {
  if (fs.existsSync(WEB_DIST)) return;
  execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: REPO_ROOT, stdio: 'inherit' });
}

/** Widest the page lays out: more than the window means a sideways scrollbar. */
const pageWidth = (page: Page) => page.evaluate(() => document.scrollingElement.scrollWidth as number);

describeBrowser('dashboard pages in chromium (keys required)', () => {
  let t: TestApp;
  let browser: Browser;
  let admin: string;
  let member: string;
  let reader: string;
  let repoId: string;
  let commit: string;
  const contexts: BrowserContext[] = [];
  const api = () => request(t.app.getHttpServer());

  /** A tab signed in with `key` (stored the way the key prompt stores it). */
  async function open(key: string, hash = '', viewport = { width: 1280, height: 900 }): Promise<Page> {
    const context = await browser.newContext({ viewport, colorScheme: 'light' });
    contexts.push(context);
    await context.addInitScript((k: string) => window.localStorage.setItem('sextant.apiKey', k), key);
    const page = await context.newPage();
    page.on('pageerror', (err) => console.error('browser error:', err.message));
    await page.goto(`${t.url}/${hash}`);
    await page.waitForSelector('.conn-connected');
    return page;
  }

  async function search(page: Page, q: string): Promise<void> {
    await page.locator('#search-input').fill(q);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.search-status[data-status="done"]');
  }

  beforeAll(async () => {
    ensureDashboardBuilt();
    // A small import limit: the dashboard must send larger task files in parts.
    t = await startTestApp({ env: { ...KEYS_REQUIRED_ENV, SEXTANT_IMPORT_BODY_LIMIT: '1mb' }, listen: true });
    admin = (await createKey(t, 'default', 'admin', 'ops-admin')).key;
    member = (await createKey(t, 'default', 'member', 'mia')).key;
    reader = (await createKey(t, 'default', 'reader', 'dana-laptop')).key;
    const root = makeFixtureRepo(SAMPLE_PROJECT, { git: true });
    git(root, 'remote', 'add', 'origin', 'git@github.com:acme/sample.git');
    commit = git(root, 'rev-parse', 'HEAD').trim();
    const reg = await api().post('/v1/repos').set(bearer(admin)).send({ path: root, name: 'sample' }).expect(201);
    repoId = reg.body.id;
    await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`).set(bearer(admin))).body.status === 'succeeded', { what: 'fixture indexed' });
    const history = [
      { id: 'T-101', title: 'Sessions expire too early after login', body: 'The session refresh did not extend expiry.', files: ['src/auth/session.ts'], source: 'jira', created_at: '2024-03-04', repository_id: repoId },
      { id: 'T-102', title: 'Token validation accepts short tokens', body: 'validate_token must reject short tokens.', files: ['src/auth/token.py'], source: 'jira', created_at: '2024-05-11', repository_id: repoId },
      // Enough git history for more than one page of the task list.
      ...Array.from({ length: 40 }, (_, i) => ({ id: `c${i}`, title: `Commit ${i}: tidy the session store`, files: ['src/auth/session.ts', 'README.md'], source: 'git', created_at: `2023-01-${String((i % 28) + 1).padStart(2, '0')}`, repository_id: repoId })),
    ];
    await api().post('/v1/tasks').set(bearer(admin)).send({ tasks: history }).expect(201);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  it('opens a result in the file view: highlighted, hits marked and scrolled to, its tasks, a code-host link; the link survives a reload and back returns to the results', async () => {
    const page = await open(admin);
    await search(page, 'how does SessionStore refresh sessions');
    // The search is in the address bar, so it can be shared.
    expect(new URL(page.url()).hash).toBe('#/search?q=how+does+SessionStore+refresh+sessions');

    const card = page.locator('.result[data-path="src/auth/session.ts"]');
    const shownLines = await card.locator('.result-lines').innerText(); // e.g. L3–19 (1-based)
    const [, from, to] = /^L(\d+)–(\d+)$/.exec(shownLines)!;
    await card.locator('a.result-path').click();
    await page.waitForSelector('.file-page .code');
    const url = new URL(page.url());
    const params = new URLSearchParams(url.hash.split('?')[1]);
    expect(url.hash.startsWith('#/file?')).toBe(true);
    expect(params.get('repo')).toBe(repoId);
    expect(params.get('path')).toBe('src/auth/session.ts');
    expect(params.get('lines')!.split(',')).toContain(`${from}-${to}`);

    // The whole file, line for line, with syntax colours.
    const lines = SAMPLE_PROJECT['src/auth/session.ts'].replace(/\n$/, '').split('\n');
    expect(await page.locator('.file-page .code-line').count()).toBe(lines.length);
    expect((await page.locator(`#L${from} .code-text`).innerText()).replace(/\n$/, '')).toBe(lines[Number(from) - 1]);
    await expect(page.locator('.file-page .tok-keyword').allInnerTexts()).resolves.toEqual(expect.arrayContaining(['class', 'return']));
    // The hit's lines are marked, and no others outside the hit ranges.
    const marked = await page.locator('.file-page .code-hit .code-ln').allInnerTexts();
    expect(marked.map(Number)).toEqual(expect.arrayContaining([Number(from), Number(to)]));
    const ranges = params.get('lines')!.split(',').map((r) => r.split('-').map(Number));
    expect(marked.map(Number).every((n) => ranges.some(([a, b = a]) => n >= a && n <= b))).toBe(true);
    // The first hit is scrolled into the code pane's view.
    await page.waitForFunction((n: number) => {
      const line = document.getElementById(`L${n}`)?.getBoundingClientRect();
      const pane = document.querySelector('.file-page pre.code')?.getBoundingClientRect();
      return line && pane && line.top >= pane.top && line.bottom <= pane.bottom;
    }, ranges[0][0]);
    // The tasks that touched it, newest first, linking to the task.
    await page.waitForSelector('.file-task-list li a');
    const taskLinks = page.locator('.file-task-list li a');
    await expect(taskLinks.first().innerText()).resolves.toBe('Sessions expire too early after login');
    await expect(page.locator('.file-task-list').innerText()).resolves.toContain('+31 older'); // 41 tasks, 10 shown
    // The code host at the indexed commit, pointing at the hit.
    const [a, b = a] = ranges[0];
    await expect(page.locator('a.code-host-link').innerText()).resolves.toBe('Open on GitHub');
    await expect(page.locator('a.code-host-link').getAttribute('href')).resolves.toBe(`https://github.com/acme/sample/blob/${commit}/src/auth/session.ts#L${a}${b > a ? `-L${b}` : ''}`);
    await shot(page, 'file-view');

    // The permalink is this address: a reload (or a teammate opening it) shows the same view.
    await page.reload();
    await page.waitForSelector('.file-page .code-hit');
    expect(page.url()).toBe(url.href);
    const again = await page.locator('.file-page .code-hit .code-ln').allInnerTexts();
    expect(again).toEqual(marked);

    // Back to the results, query and all.
    await page.locator('a:has-text("Back to results")').click();
    await page.waitForSelector('.search-status[data-status="done"]');
    await expect(page.locator('#search-input').inputValue()).resolves.toBe('how does SessionStore refresh sessions');
    expect(await page.locator('.result[data-path="src/auth/session.ts"]').count()).toBe(1);
  });

  it('runs a shared search link with its strategy and filters', async () => {
    const page = await open(reader, `#/search?q=validate+token&strategy=rrf&langs=python`);
    await page.waitForSelector('.search-status[data-status="done"]');
    await expect(page.locator('#search-input').inputValue()).resolves.toBe('validate token');
    await expect(page.locator('select[aria-label="fusion strategy"]').inputValue()).resolves.toBe('rrf');
    await expect(page.locator('details.filters').getAttribute('open')).resolves.not.toBeNull();
    await expect(page.locator('input[placeholder="typescript, python"]').inputValue()).resolves.toBe('python');
    await expect(page.locator('.status-text').innerText()).resolves.toContain('rrf');
    const paths = await page.locator('.result[data-path]').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
    expect(paths).toEqual(['src/auth/token.py']);
    // rrf weighed the prior into each source before fusing; the card does not claim a multiplication.
    await expect(page.locator('.result[data-path="src/auth/token.py"] .breakdown-text').innerText()).resolves.toMatch(/^score [\d.]+, prior [\d.]+ on each source's score before fusion$/);
    // Changing the search changes the address.
    await page.locator('select[aria-label="fusion strategy"]').selectOption('weighted');
    await search(page, 'Clamp');
    expect(new URL(page.url()).hash).toBe('#/search?q=Clamp&langs=python');
  });

  it('marks a nonsense query as a weak match instead of showing confident scores', async () => {
    const res = await api().post('/v1/search').set(bearer(reader)).send({ query: 'zzqqxxnonexistentterm' }).expect(200);
    expect(res.body.match).toBe('weak'); // the API's calibrated state the page must show
    const page = await open(reader);
    await search(page, 'zzqqxxnonexistentterm');
    await expect(page.locator('.weak-match').innerText()).resolves.toContain('Weak match');
    const scores = await page.locator('.result-score').allInnerTexts();
    expect(scores.length).toBe(res.body.results.length);
    expect(scores.every((s) => s === 'weak match')).toBe(true);
    expect(await page.locator('.breakdown-text').allInnerTexts()).not.toContain(expect.stringMatching(/^score 1\.000/));
    await shot(page, 'search-weak-match');
    // A real hit still shows its score.
    await search(page, 'SessionStore');
    expect(await page.locator('.weak-match').count()).toBe(0);
    await expect(page.locator('.result-score').first().innerText()).resolves.toMatch(/^\d\.\d{3}$/);
  });

  it("says why a match is weak: words the workspace never saw, or a file the ranker finds unlikely, keep each result's own score", async () => {
    const page = await open(reader);
    // Over REST (the socket cut off), with the server's real response marked the way a trained ranker would mark it.
    await page.route('**/socket.io/**', (route) => route.abort());
    (t.app.get(RealtimeGateway) as unknown as { server: { disconnectSockets(close: boolean): void } }).server.disconnectSockets(true);
    await page.waitForSelector('.conn-reconnecting');
    let marking: Record<string, unknown> = {};
    await page.route('**/v1/search', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      await route.fulfill({ response, json: { ...body, ...marking, results: body.results.map((r: { score: number }, i: number) => ({ ...r, score: i ? 0.01 : 0.031 })) } });
    });
    marking = { match: 'weak', match_reason: 'unknown_terms', unknown_terms: ['kubernetes', 'helm'] };
    await search(page, 'SessionStore');
    await expect(page.locator('.weak-match').innerText()).resolves.toContain("most of the query's words (kubernetes, helm) appear nowhere in the indexed code or its history");
    expect(await page.locator('.result-score').allInnerTexts()).not.toContain('weak match');
    marking = { match: 'weak', match_reason: 'low_relevance' };
    await search(page, 'SessionStore refresh');
    await page.waitForFunction(() => /only a 3\.1 % chance of being a file a past task like this changed/.test(document.querySelector('.weak-match')?.textContent ?? ''));
    expect(await page.locator('.result-score').allInnerTexts()).not.toContain('weak match');
  });

  it('takes a pasted issue report with its lines: Shift+Enter adds a line, Enter searches the whole text, the traceback frame leads', async () => {
    const page = await open(reader);
    const box = page.locator('#search-input');
    await box.click();
    await page.keyboard.type('Negative page sizes crash the service');
    await page.keyboard.press('Shift+Enter');
    expect(await page.locator('.search-status[data-status="done"]').count()).toBe(0); // no search yet
    await page.keyboard.press('Shift+Enter');
    // The rest arrives at once with its line breaks, as a paste does.
    await page.keyboard.insertText('Traceback (most recent call last):\n  File "/srv/app/src/util/math.go", line 5, in Clamp\npanic: runtime error');
    const text = await box.inputValue();
    expect(text.split('\n')).toHaveLength(5);
    await expect(box.getAttribute('rows')).resolves.toBe('5');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.search-status[data-status="done"]');
    // The whole text, line breaks included, is what was searched (the address holds it).
    expect(new URLSearchParams(new URL(page.url()).hash.split('?')[1]).get('q')).toBe(text);
    await expect(page.locator('.result').first().getAttribute('data-path')).resolves.toBe('src/util/math.go');
    await shot(page, 'search-issue-report');
  });

  it('lets an admin watch, re-index and remove repositories, and shows a failed clone’s reason at once', async () => {
    const spare = makeFixtureRepo({ 'a.py': 'def a():\n    return 1\n' });
    const spareId = (await api().post('/v1/repos').set(bearer(admin)).send({ path: spare, name: 'spare', index: false }).expect(201)).body.id;
    const page = await open(admin, '#/repos');
    const sample = page.locator('[data-repo-name="sample"]');
    await sample.waitFor();

    // Watch toggle: the server's setting follows.
    await sample.locator('.watch-toggle input').check();
    await waitFor(async () => (await api().get(`/v1/repos/${repoId}`).set(bearer(admin))).body.watch === true, { what: 'watch on' });
    await sample.locator('.watch-toggle input').uncheck();
    await waitFor(async () => (await api().get(`/v1/repos/${repoId}`).set(bearer(admin))).body.watch === false, { what: 'watch off' });

    // Re-index starts a job that finishes.
    await sample.getByRole('button', { name: 'Re-index', exact: true }).click();
    await page.waitForFunction(() => /unchanged\s*5/.test(document.querySelector('[data-repo-name="sample"] .progress-stats')?.textContent ?? ''), undefined, { timeout: 30_000 });

    // Remove asks first, then the repository is gone here and on the server.
    const spareCard = page.locator('[data-repo-name="spare"]');
    await spareCard.getByRole('button', { name: 'Remove…' }).click();
    await expect(spareCard.innerText()).resolves.toContain('the directory itself is not touched');
    await shot(page, 'repos-remove-confirm');
    await spareCard.getByRole('button', { name: 'Remove spare' }).click();
    await spareCard.waitFor({ state: 'detached' });
    await api().get(`/v1/repos/${spareId}`).set(bearer(admin)).expect(404);

    // A clone that cannot work fails with the server's reason, not after a long wait.
    await page.locator('label.check:has-text("Git URL") input').check();
    await page.locator('#repo-location').fill('https://git.example.invalid/acme/shop.git');
    const started = Date.now();
    await page.getByRole('button', { name: 'Add and index' }).click();
    const alert = page.locator('.add-repo [role="alert"]');
    await alert.waitFor({ timeout: 8000 });
    expect(Date.now() - started).toBeLessThan(8000);
    await expect(alert.innerText()).resolves.toContain('Cannot resolve the git host git.example.invalid');
    await expect(page.getByRole('button', { name: 'Add and index' }).isEnabled()).resolves.toBe(true);
    await shot(page, 'repos-clone-failed');
  });

  it('shows readers and members only the repository controls they may use', async () => {
    const asReader = await open(reader, '#/repos');
    await asReader.locator('[data-repo-name="sample"]').waitFor();
    expect(await asReader.locator('#repo-location').count()).toBe(0);
    expect(await asReader.locator('[data-repo-name="sample"] button').count()).toBe(0);
    expect(await asReader.locator('.watch-toggle').count()).toBe(0);
    await expect(asReader.locator('.role-note').innerText()).resolves.toContain('signed in as reader');
    await shot(asReader, 'repos-reader');

    const asMember = await open(member, '#/repos');
    await asMember.locator('[data-repo-name="sample"]').waitFor();
    expect(await asMember.locator('#repo-location').count()).toBe(0);
    const card = asMember.locator('[data-repo-name="sample"]');
    expect(await card.getByRole('button', { name: 'Re-index', exact: true }).count()).toBe(1);
    expect(await card.getByRole('button', { name: 'Remove…' }).count()).toBe(0);
    expect(await card.locator('.watch-toggle').count()).toBe(0);
  });

  it('task list: each task’s repository, a filter that matches nothing says so (the tasks still exist), a linked task opens expanded', async () => {
    const page = await open(reader, '#/tasks');
    await page.waitForFunction(() => /^42 tasks$/.test(document.querySelector('.task-meta')?.textContent ?? ''));
    expect(await page.locator('.task-list > li').count()).toBe(25);
    await expect(page.locator('.task-list > li').first().locator('.task-repo').innerText()).resolves.toBe('sample');
    // Readers cannot import, so the import forms are not shown.
    expect(await page.locator('#import-file-title').count()).toBe(0);

    await page.locator('input[placeholder="source (git, jira…)"]').fill('github');
    await page.waitForFunction(() => /No task matches source “github” — the workspace has 42 tasks/.test(document.querySelector('.empty')?.textContent ?? ''));
    expect(await page.locator('text=No tasks yet').count()).toBe(0);
    await shot(page, 'tasks-filter-empty');
    await page.getByRole('button', { name: 'Show all tasks' }).click();
    await page.waitForFunction(() => /^42 tasks$/.test(document.querySelector('.task-meta')?.textContent ?? ''));

    // A similar-task search filtered by source keeps to that source.
    await page.locator('input[placeholder="source (git, jira…)"]').fill('jira');
    await page.locator('#task-query').fill('session expiry');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /similar tasks for “session expiry” from jira/.test(document.querySelector('.task-meta')?.textContent ?? ''));
    const pills = await page.locator('.task-list .task summary .pill:not(.task-repo)').allInnerTexts();
    expect(pills.length).toBeGreaterThan(0);
    expect(pills.every((p) => p === 'jira')).toBe(true);

    const t101 = (await api().get('/v1/tasks/T-101').set(bearer(reader)).expect(200)).body;
    await page.goto(`${t.url}/#/tasks?id=${t101.id}`);
    const focused = page.locator('.focused-task details.task');
    await focused.waitFor();
    await expect(focused.getAttribute('open')).resolves.not.toBeNull();
    await expect(focused.locator('.task-body').first().innerText()).resolves.toContain('did not extend expiry');
    await expect(focused.locator('.task-files a').first().getAttribute('href')).resolves.toContain('#/file?repo=');
    await shot(page, 'tasks-focused');
  });

  it('settings: an admin creates a key (secret shown once), sees keys by name, revokes one; presence shows key names; readers see no key management', async () => {
    const page = await open(admin, '#/settings');
    await page.waitForSelector('[data-section="workspace"]');
    await expect(page.locator('[data-section="workspace"]').innerText()).resolves.toContain('ops-admin · admin');
    await page.waitForSelector('[data-section="weights"] tr[data-query-class="specific"]');
    expect(await page.locator('[data-section="weights"] tbody tr').count()).toBe(2);
    // Keys by name, with only their public prefix.
    await page.waitForSelector('tr[data-key-name="dana-laptop"]');
    await expect(page.locator('tr[data-key-name="dana-laptop"]').innerText()).resolves.toMatch(/dana-laptop\s+reader\s+sxt_[0-9a-f]{8}/);

    await page.locator('#key-name').fill('ci-bot');
    await page.locator('#key-role').selectOption('reader');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.locator('.new-key .secret').innerText();
    expect(secret).toMatch(/^sxt_[0-9a-f]{8}_[A-Za-z0-9]{32,}$/);
    await api().get('/v1/auth/me').set(bearer(secret)).expect(200);
    await page.waitForSelector('tr[data-key-name="ci-bot"]');
    await shot(page, 'settings-key-created', true);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.locator('.new-key').waitFor({ state: 'detached' });
    expect(await page.locator('body').innerText()).not.toContain(secret); // shown once

    await page.locator('tr[data-key-name="ci-bot"]').getByRole('button', { name: 'Revoke…' }).click();
    await page.getByRole('button', { name: 'Revoke ci-bot' }).click();
    await page.locator('tr[data-key-name="ci-bot"]').waitFor({ state: 'detached' });
    await api().get('/v1/auth/me').set(bearer(secret)).expect(401);

    // A teammate signed in with "dana-laptop" shows by that name, not by an id.
    const mate = await open(reader, '#/settings');
    await page.waitForSelector('.person-name:has-text("dana-laptop")');
    const people = await page.locator('.person-name').allInnerTexts();
    expect(people).toEqual(expect.arrayContaining(['ops-admin', 'dana-laptop']));
    expect(people.some((p) => /^key /.test(p))).toBe(false);
    // The activity feed names a connected teammate's rating by key name too.
    await open(member, '#/search');
    await page.waitForSelector('.person-name:has-text("mia")');
    const found = (await api().post('/v1/search').set(bearer(member)).send({ query: 'validate_token' }).expect(200)).body;
    await api().post('/v1/feedback').set(bearer(member)).send({ search_id: found.search_id, item_id: found.results[0].id, rating: 1 }).expect(200);
    await page.waitForSelector('.activity-list li:has-text("mia rated")');
    expect(await page.locator('.activity-list').innerText()).not.toMatch(/key:[0-9a-f]{8}-/);
    // Readers get the workspace and weights, not key management.
    await mate.waitForSelector('[data-section="weights"]');
    expect(await mate.locator('[data-section="api-keys"]').count()).toBe(0);
    await expect(mate.locator('.settings-page').innerText()).resolves.toContain('API keys are managed by workspace admins');
  });

  it('fits a 390 px window: no sideways scrolling on any page, every tab reachable, activity text not cut off', async () => {
    // Something long in the activity feed: a repository with a long name being indexed.
    const longName = 'payments-reconciliation-service-with-a-very-long-name';
    const page = await open(admin, '', { width: 390, height: 844 });
    const reg = await api().post('/v1/repos').set(bearer(admin)).send({ path: makeFixtureRepo({ 'x.ts': 'export const x = 1;\n' }), name: longName }).expect(201);
    await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`).set(bearer(admin))).body.status === 'succeeded', { what: 'long-named repo indexed' });
    await page.waitForSelector(`.activity-list li:has-text("${longName}")`);

    await search(page, 'SessionStore refresh');
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await shot(page, 'narrow-search', true);

    // Every tab is inside the window and works.
    const tabs = page.locator('nav[aria-label="sections"] a');
    const count = await tabs.count();
    expect(count).toBeGreaterThanOrEqual(5);
    for (let i = 0; i < count; i++) {
      const box = (await tabs.nth(i).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    const pages: Array<[string, string, string]> = [
      ['Repositories', '#/repos', '[data-repo-name="sample"]'],
      ['Tasks', '#/tasks', '.task-list > li'],
      ['Insights', '#/insights', '[data-query-class]'],
      ['Settings', '#/settings', 'tr[data-key-name]'],
    ];
    for (const [label, hash, ready] of pages) {
      await page.locator('nav[aria-label="sections"]').getByRole('link', { name: label }).click();
      await page.waitForSelector(ready);
      expect(new URL(page.url()).hash).toBe(hash);
      expect(await pageWidth(page)).toBeLessThanOrEqual(390);
      await shot(page, `narrow-${hash.slice(2)}`, true);
      // Live job frames seen on another tab do not hide the jobs from before (sample's included).
      if (hash === '#/repos') await page.locator('[data-repo-name="sample"] .progress[data-job-status="succeeded"]').waitFor();
    }
    await page.goto(`${t.url}/#/file?repo=${repoId}&path=src%2Fauth%2Fsession.ts&lines=5-9`);
    await page.waitForSelector('.file-page .code-hit');
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await shot(page, 'narrow-file', true);

    // The activity feed wraps long text instead of cutting it off.
    const clipped = await page.locator('.activity-text').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
    expect(clipped).toEqual([]);
  });
  it('imports a task file twice the import body limit from the Tasks page in parts: a 2 MB CSV saved on Windows, its bad row named by its line in the file', async () => {
    const page = await open(admin, '#/tasks');
    await page.locator('#import-file-title').waitFor();
    const prose = 'Exporting a report times out on large accounts.\r\nIt says ""timeout"". '.repeat(20);
    const rows = Array.from({ length: 2400 }, (_, i) => `EXP-${i},${i === 1234 ? '' : `Export ${i} times out`},"${prose}","src\\auth\\session.ts"`);
    const csv = Buffer.from(`\uFEFFid,title,body,files\r\n${rows.join('\r\n')}\r\n`);
    expect(csv.length).toBeGreaterThan(2 * 1024 * 1024);
    await page.locator('input[type="file"]').setInputFiles({ name: 'exports.csv', mimeType: 'text/csv', buffer: csv });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('button', { name: /^Importing… part \d+ of [4-9]$/ }).waitFor();
    const status = page.locator('.import-result[role="status"]');
    await status.waitFor({ timeout: 60_000 });
    await expect(status.innerText()).resolves.toMatch(/Imported 2399, updated 0, skipped 1\.\s+line 1236: title: empty: every task needs a title/);
    expect((await api().get('/v1/tasks').set(bearer(admin)).expect(200)).body.total).toBe(42 + 2399);
    const found = (await api().get('/v1/tasks').query({ query: 'Export 777 times out' }).set(bearer(admin)).expect(200)).body as { tasks: Array<{ external_id: string; files: string[] }> };
    expect(found.tasks.find((x) => x.external_id === 'EXP-777')).toMatchObject({ files: ['src/auth/session.ts'], body: expect.stringContaining('It says "timeout".') });
  }, 90_000);

  it('maps a tracker export’s CSV columns on the Tasks page: guessed from the header, changed by hand, required ones enforced', async () => {
    const page = await open(admin, '#/tasks');
    await page.locator('#import-file-title').waitFor();
    const jira = '\uFEFF"Issue key",Summary,Description,Created,"Affected files",status\r\nPAY-1,Refunds fail for partial captures,"Stack trace, then a fix",2024-03-01 09:00,"src\\auth\\session.ts; docs/guide.md",Triage\r\n';
    await page.locator('input[type="file"]').setInputFiles({ name: 'jira.csv', mimeType: 'text/csv', buffer: Buffer.from(jira) });
    const columns = page.locator('fieldset.csv-columns');
    await columns.waitFor();
    const column = (field: string) => columns.getByLabel(`Column for ${field}`, { exact: true });
    await expect(Promise.all(['id', 'title', 'body', 'files', 'status', 'created'].map((f) => column(f).inputValue()))).resolves.toEqual(['Issue key', 'Summary', 'Description', '', 'status', 'Created']);
    await column('files').selectOption('Affected files');
    await column('status').selectOption('(none)');
    await shot(page, 'tasks-import-csv-columns');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page.locator('.import-result[role="status"]').innerText()).resolves.toMatch(/Imported 1, updated 0, skipped 0/);
    const task = (await api().get('/v1/tasks/PAY-1').set(bearer(admin)).expect(200)).body as { title: string; body: string; files: string[]; created_at: string; status: string | null };
    expect(task).toMatchObject({ title: 'Refunds fail for partial captures', body: 'Stack trace, then a fix', files: ['src/auth/session.ts', 'docs/guide.md'], created_at: '2024-03-01T09:00:00.000Z', status: null });

    await page.locator('input[type="file"]').setInputFiles({ name: 'odd.csv', mimeType: 'text/csv', buffer: Buffer.from('ref,headline\nX-1,Something\n') });
    // Choosing another file clears the last import's summary, so it cannot be read as this one's.
    await page.locator('.import-result[role="status"]').waitFor({ state: 'detached' });
    await columns.getByText('Choose the column that holds each task’s id and title.').waitFor();
    await expect(page.getByRole('button', { name: 'Import', exact: true }).isDisabled()).resolves.toBe(true);
    await column('id').selectOption('ref');
    await column('title').selectOption('headline');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.locator('.import-result[role="status"]').getByText('Imported 1, updated 0, skipped 0').waitFor();
    expect((await api().get('/v1/tasks/X-1').set(bearer(admin)).expect(200)).body).toMatchObject({ title: 'Something' });
  });

  it('says how much of a task file was imported when a part of it is refused', async () => {
    const page = await open(admin, '#/tasks');
    await page.locator('#import-file-title').waitFor();
    const line = (i: number, body: string) => JSON.stringify({ id: `HUGE-${i}`, title: `Part ${i}`, body, files: ['src/auth/session.ts'] });
    const lines = Array.from({ length: 1500 }, (_, i) => line(i, 'Short body. '.repeat(50)));
    lines.push(line(1500, 'x'.repeat(1_200_000))); // alone larger than the 1 MB import limit
    await page.locator('input[type="file"]').setInputFiles({ name: 'huge.jsonl', mimeType: 'application/json', buffer: Buffer.from(lines.join('\n')) });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const error = page.locator('#import-file-title ~ .text-error');
    await error.waitFor({ timeout: 60_000 });
    const text = await error.innerText();
    expect(text).toContain('SEXTANT_IMPORT_BODY_LIMIT');
    expect(text).toContain("the file's first 1500 lines were imported: 1500 new, 0 updated");
    const imported = (await api().get('/v1/tasks').query({ query: 'Part 1499' }).set(bearer(admin)).expect(200)).body as { tasks: Array<{ external_id: string }> };
    expect(imported.tasks.map((x) => x.external_id)).toContain('HUGE-1499');
    await expect(page.getByRole('button', { name: 'Import', exact: true }).isEnabled()).resolves.toBe(true);
  }, 90_000);
});
