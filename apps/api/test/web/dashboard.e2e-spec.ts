/**
 * The web dashboard in a real browser (Debian chromium driven by playwright-core) against
 * the real app: streamed search, rating, adding a repository and watching its progress
 * bar reach 100 %, the other pages, light and dark themes, and API-key entry when the
 * server requires keys. Screenshots land in artifacts/screenshots/ for people to look at.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import request from 'supertest';
import { FEATURE_NAMES } from '@sextant/retrieval';
import { EvalReportsService } from '../../src/modules/evaluation/eval-reports.service';
import { LearnedRankerService } from '../../src/modules/fusion/learned-ranker.service';
import { WorkspacesService } from '../../src/modules/workspaces/workspaces.service';
import { RealtimeGateway } from '../../src/modules/realtime/realtime.gateway';
import { createKey, KEYS_REQUIRED_ENV } from '../auth/auth-helpers';
import { makeFixtureRepo, SAMPLE_PROJECT } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { holdSource } from '../helpers/hold-source';
import { waitFor } from '../helpers/wait';

// Callbacks given to page.evaluate/waitForFunction run in the browser; the repository's
// tsconfig has no DOM lib, so these browser globals are declared for this file only.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any, window: any, MutationObserver: any;
declare function requestAnimationFrame(cb: () => void): number;
declare function getComputedStyle(el: unknown): { backgroundColor: string };
type HTMLElement = any;

const CHROMIUM = '/usr/bin/chromium';
const REPO_ROOT = path.resolve(__dirname, '../../../..');
const WEB_DIST = path.join(REPO_ROOT, 'apps/web/dist/index.html');
const SHOTS = path.join(REPO_ROOT, 'artifacts/screenshots');
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) {
  // Visible in the Jest output: the suite is skipped, not silently green.
  console.warn(`dashboard e2e SKIPPED: ${CHROMIUM} is missing (install Debian's chromium package; .ci/run does)`);
}
const describeBrowser = haveChromium ? describe : describe.skip;

jest.setTimeout(180_000);

async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
}

async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });
}

/** `npm test` builds the dashboard first; a lone `npx jest apps/api/test/web` builds it here. */
function ensureDashboardBuilt(): void {
  if (fs.existsSync(WEB_DIST)) return;
  execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: REPO_ROOT, stdio: 'inherit' });
}

const PAST_TASKS = [
  { id: 'T-101', title: 'Sessions expire too early after login', body: 'Users get logged out; the session refresh did not extend expiry.', files: ['src/auth/session.ts', 'docs/guide.md'], source: 'jira', created_at: '2024-03-04' },
  { id: 'T-102', title: 'Token validation accepts short tokens', body: 'validate_token must reject tokens shorter than 10 characters.', files: ['src/auth/token.py'], source: 'jira', created_at: '2024-05-11' },
  { id: 'T-103', title: 'Clamp helper for pagination limits', body: 'Add a Clamp function used by the paging code.', files: ['src/util/math.go'], source: 'jira', created_at: '2024-06-20' },
];

/** A repository big enough that indexing it shows intermediate progress frames. */
function largerProject(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 160; i++) {
    files[`src/module-${String(i).padStart(3, '0')}/service.ts`] = `/** Service number ${i}. */\nexport class Service${i} {\n  private readonly items = new Map<string, number>();\n\n  add(name: string, value: number): void {\n    this.items.set(name, value + ${i});\n  }\n\n  total(): number {\n    let sum = 0;\n    for (const v of this.items.values()) sum += v;\n    return sum;\n  }\n}\n`;
    if (i % 4 === 0) files[`scripts/job_${i}.py`] = `def run_${i}(items):\n    """Sums the items of job ${i}."""\n    return sum(x * ${i} for x in items)\n`;
  }
  return files;
}

describeBrowser('web dashboard in chromium (local mode)', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const api = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    ensureDashboardBuilt();
    t = await startTestApp({ listen: true });
    const reg = await api().post('/v1/repos').send({ path: makeFixtureRepo(SAMPLE_PROJECT), name: 'sample' }).expect(201);
    await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'fixture indexed' });
    await api().post('/v1/tasks').send({ tasks: PAST_TASKS.map((x) => ({ ...x, repository_id: reg.body.id })) }).expect(201);
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    page = await context.newPage();
    page.on('pageerror', (err) => console.error('browser error:', err.message));
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('runs a search whose results stream in (partials on screen before it is done, no layout jumps), then rates one from the keyboard', async () => {
    await page.goto(t.url!);
    await page.waitForSelector('.conn-connected');
    await page.locator('#search-input').blur();
    await page.keyboard.press('/');
    await page.waitForFunction(() => document.activeElement?.id === 'search-input', undefined, { timeout: 10_000 });

    // Record the results list height every frame while streaming: it must not change.
    await page.evaluate(() => {
      const w = window as unknown as { heights: number[]; sawStreamingResults: boolean };
      w.heights = [];
      w.sawStreamingResults = false;
      const tick = () => {
        const status = document.querySelector('.search-status')?.dataset.status;
        const list = document.querySelector('ol.results');
        if (status === 'streaming' && list) {
          w.heights.push(Math.round(list.getBoundingClientRect().height));
          if (document.querySelectorAll('.result[data-result-id]').length > 0) w.sawStreamingResults = true;
        }
        if (status !== 'done') requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });

    const slow = holdSource(t, 'task.dense', { maxMs: 1500 }); // under the 2 s source timeout
    try {
      await page.keyboard.type('how does SessionStore refresh sessions');
      await page.keyboard.press('Enter');
      // Partial results on screen while the held-back source is still pending (on a loaded machine
      // another source may not have answered yet either).
      await page.waitForFunction(() => document.querySelector('.search-status')?.dataset.status === 'streaming' && document.querySelectorAll('.result[data-result-id]').length > 0);
      expect(await page.locator('.source-progress li.pending').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining('task·semantic')]));
      await shot(page, 'search-streaming-light');
      slow.release();
      await page.waitForSelector('.search-status[data-status="done"]', { timeout: 20_000 });
      expect(await page.locator('.source-progress li.pending').count()).toBe(0);
    } finally {
      slow.release();
      slow.restore();
    }
    const probe = await page.evaluate(() => {
      const w = window as unknown as { heights: number[]; sawStreamingResults: boolean };
      return { heights: w.heights, sawStreamingResults: w.sawStreamingResults };
    });
    expect(probe.sawStreamingResults).toBe(true);
    expect(new Set(probe.heights).size).toBe(1);

    const cards = page.locator('.result[data-result-id]');
    expect(await cards.count()).toBeGreaterThan(0);
    const first = cards.first();
    // The class definition answers the question; its card shows every part of a result.
    const session = page.locator('.result[data-path="src/auth/session.ts"]');
    await expect(session.locator('.badge').count()).resolves.toBeGreaterThan(0);
    await expect(session.locator('.result-lines').innerText()).resolves.toMatch(/^L\d+–\d+$/);
    await expect(session.locator('.breakdown-text').innerText()).resolves.toMatch(/score [\d.]+ = [\d.]+ × prior/);
    // Line numbers count from 1, as in an editor: the first shown line is that line of the file.
    const firstLn = Number(await session.locator('.code-ln').first().innerText());
    const firstText = (await session.locator('.code-text').first().innerText()).replace(/\n$/, '');
    expect(SAMPLE_PROJECT['src/auth/session.ts'].split('\n')[firstLn - 1]).toBe(firstText);
    expect(await session.locator('.result-lines').innerText()).toMatch(new RegExp(`^L${firstLn}–\\d+$`));
    await expect(session.locator('.tok-keyword').allInnerTexts()).resolves.toEqual(expect.arrayContaining(['class', 'return']));
    await expect(session.locator('.result-related').innerText()).resolves.toContain('Sessions expire too early after login');
    const heights = await cards.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().height)));
    expect(new Set(heights).size).toBe(1);

    // Keyboard: ArrowDown from the box focuses the first result, "+" rates it helpful.
    await page.locator('#search-input').focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.resultId)).toBe(await first.getAttribute('data-result-id'));
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.resultId)).toBe(await first.getAttribute('data-result-id'));
    await page.keyboard.press('+');
    await page.waitForSelector('ol.results > li:first-child [aria-label="helpful"][aria-pressed="true"]');
    await page.waitForFunction(() => /rating recorded/.test(document.querySelector('ol.results > li:first-child .rate-note')?.textContent ?? ''));
    await shot(page, 'search-rated-light');

    const searchId = await page.locator('ol.results').getAttribute('data-search-id');
    const itemId = await first.getAttribute('data-result-id');
    expect(searchId).toBeTruthy();
    const stored = await api().get(`/v1/feedback?search_id=${searchId}`).expect(200);
    expect(stored.body.ratings).toEqual([expect.objectContaining({ item_id: itemId, rating: 1, mine: true })]);
    await page.waitForSelector('.activity-list li:has-text("rated")');
    // "+" again withdraws it.
    await first.focus();
    await page.keyboard.press('+');
    await page.waitForSelector('ol.results > li:first-child [aria-label="helpful"][aria-pressed="false"]');
    await page.waitForFunction(() => /withdrawn/.test(document.querySelector('ol.results > li:first-child .rate-note')?.textContent ?? ''));
    const after = await api().get(`/v1/feedback?search_id=${searchId}`).expect(200);
    expect(after.body.ratings.filter((r: { rating: number }) => r.rating !== 0)).toEqual([]);
    // "-" rates it not relevant (what the insights page shows later).
    await page.keyboard.press('-');
    await page.waitForSelector('ol.results > li:first-child [aria-label="not relevant"][aria-pressed="true"]');
  });

  it('shows teammates connected to the workspace (presence) and the search in dark mode', async () => {
    const dark = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
    try {
      const mate = await dark.newPage();
      await mate.goto(t.url!);
      await mate.waitForSelector('.conn-connected');
      // Both tabs act as "local" (local mode): one person, two connections.
      await page.waitForSelector('.person:has-text("local") >> text=×2');
      await mate.waitForSelector('.person:has-text("local") >> text=×2');
      const bg = await mate.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(bg).toBe('rgb(15, 18, 22)');
      await mate.locator('#search-input').fill('validate_token');
      await mate.keyboard.press('Enter');
      await mate.waitForSelector('.search-status[data-status="done"]');
      await expect(mate.locator('.result[data-path]').first().getAttribute('data-path')).resolves.toBe('src/auth/token.py');
      await shot(mate, 'search-dark');
      // The theme button overrides the system preference: system -> light -> dark.
      const background = () => mate.evaluate(() => getComputedStyle(document.body).backgroundColor);
      await mate.getByRole('button', { name: /^theme: system/ }).click();
      await expect(background()).resolves.toBe('rgb(246, 247, 249)');
      await mate.getByRole('button', { name: /^theme: light/ }).click();
      await expect(background()).resolves.toBe('rgb(15, 18, 22)');
      await mate.getByRole('button', { name: /^theme: dark/ }).click(); // back to following the system
      await mate.close();
      await page.waitForFunction(() => !document.querySelector('.person')?.textContent?.includes('×2'));
    } finally {
      await dark.close();
    }
  });

  it('adds a fixture repository and its progress bar reaches 100 % live', async () => {
    const root = makeFixtureRepo(largerProject(), { prefix: 'sextant-web-repo-' });
    await page.goto(`${t.url}/#/repos`);
    await page.waitForSelector('h1:has-text("Repositories")');
    // Every aria-valuenow the bar shows, as it changes.
    await page.evaluate(() => {
      const w = window as unknown as { seen: number[] };
      w.seen = [];
      new MutationObserver(() => {
        const bar = document.querySelector('[data-repo-name="services"] [role="progressbar"]');
        const v = bar ? Number(bar.getAttribute('aria-valuenow')) : NaN;
        if (!Number.isNaN(v) && w.seen.at(-1) !== v) w.seen.push(v);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
    });
    await page.locator('#repo-location').fill(root);
    await page.getByPlaceholder('name (optional)').fill('services');
    await page.getByRole('button', { name: 'Add and index' }).click();
    const bar = page.locator('[data-repo-name="services"] [role="progressbar"]');
    await bar.waitFor();
    await page.waitForFunction(() => {
      const v = document.querySelector('[data-repo-name="services"] [role="progressbar"]')?.getAttribute('aria-valuenow');
      return v !== null && v !== undefined && Number(v) > 0 && Number(v) < 100;
    }, undefined, { timeout: 60_000 }).then(() => shot(page, 'repos-indexing-light'), () => undefined); // fast machines may skip straight to 100
    await page.waitForSelector('[data-repo-name="services"] [role="progressbar"][aria-valuenow="100"]', { timeout: 120_000 });
    await expect(page.locator('[data-repo-name="services"] .progress').getAttribute('data-job-status')).resolves.toBe('succeeded');
    const seen = await page.evaluate(() => (window as unknown as { seen: number[] }).seen);
    expect(seen.at(-1)).toBe(100);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen); // never moves backwards
    await expect(page.locator('[data-repo-name="services"] .progress-stats').innerText()).resolves.toMatch(/files\s*200\/200/);

    await page.locator('[data-repo-name="services"] .repo-details summary').click();
    const counts = page.locator('[data-repo-name="services"] .counts tbody');
    await counts.locator('tr').first().waitFor();
    const rows = await counts.locator('tr').allInnerTexts();
    expect(rows.some((r) => /typescript\s+160\s+\d+/.test(r))).toBe(true);
    expect(rows.some((r) => /python\s+40\s+\d+/.test(r))).toBe(true);
    await page.waitForTimeout(400); // let the bar's width transition finish before the screenshot
    await shot(page, 'repos-done-light', true);

    const dark = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
    const p = await dark.newPage();
    await p.goto(`${t.url}/#/repos`);
    await p.waitForSelector('[data-repo-name="services"] [role="progressbar"][aria-valuenow="100"]');
    await p.waitForTimeout(400);
    await shot(p, 'repos-dark', true);
    await dark.close();
  });

  it('resyncs job state over REST after the socket was lost (events missed meanwhile still show up)', async () => {
    await page.goto(`${t.url}/#/repos`);
    await page.waitForSelector('.conn-connected');
    const stats = page.locator('[data-repo-name="sample"] .progress-stats');
    await expect(stats.innerText()).resolves.toMatch(/unchanged\s*0/);
    // Cut the tab off: its socket.io requests fail and the server drops its connection.
    await page.route('**/socket.io/**', (route) => route.abort());
    (t.app.get(RealtimeGateway) as unknown as { server: { disconnectSockets(close: boolean): void } }).server.disconnectSockets(true);
    await page.waitForSelector('.conn-reconnecting');
    // Meanwhile a teammate re-indexes "sample" (incremental: every file is unchanged).
    const sample = (await api().get('/v1/repos').expect(200)).body.repositories.find((r: { name: string }) => r.name === 'sample');
    const job = (await api().post(`/v1/repos/${sample.id}/index`).send({ kind: 'incremental' }).expect(202)).body;
    await waitFor(async () => (await api().get(`/v1/jobs/${job.id}`)).body.status === 'succeeded', { what: 're-index' });
    await expect(stats.innerText()).resolves.toMatch(/unchanged\s*0/); // the tab saw none of it
    await page.unroute('**/socket.io/**');
    await page.waitForSelector('.conn-connected', { timeout: 20_000 });
    await page.waitForFunction(() => /unchanged\s*5/.test(document.querySelector('[data-repo-name="sample"] .progress-stats')?.textContent ?? ''), undefined, { timeout: 10_000 });
  });

  it('shows task history and the insights page', async () => {
    await page.goto(`${t.url}/#/tasks`);
    await page.waitForSelector('.task-list > li');
    expect(await page.locator('.task-list > li').count()).toBe(PAST_TASKS.length);
    await page.locator('#task-query').fill('session expiry');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /similar tasks for/.test(document.querySelector('.task-meta')?.textContent ?? ''));
    await expect(page.locator('.task-title').first().innerText()).resolves.toBe('Sessions expire too early after login');
    await shot(page, 'tasks-light');

    await page.goto(`${t.url}/#/insights`);
    await page.waitForSelector('[data-testid="eval-placeholder"]');
    await page.waitForSelector('[data-query-class="specific"] svg');
    // Each class whose weights the first test's ratings moved has a history chart (one line per source); the others say so.
    const weights = await api().get('/v1/weights').expect(200);
    const classes = weights.body.classes as Array<{ query_class: string; history: unknown[]; current: { weights: object } }>;
    for (const c of classes) {
      const card = page.locator(`[data-query-class="${c.query_class}"]`);
      if (c.history.length > 1) await card.locator('.chart-line').first().waitFor({ state: 'attached' });
      expect(await card.locator('.chart-line').count()).toBe(c.history.length > 1 ? Object.keys(c.current.weights).length : 0);
      expect(await card.locator('text=No changes yet').count()).toBe(c.history.length > 1 ? 0 : 1);
    }
    await expect(page.locator('.card:has-text("Ratings")').innerText()).resolves.toMatch(/\d+ helpful · \d+ not relevant/);
    // Three past tasks are too few for a learned ranker: the card says so and how it will come.
    const rankerCard = page.locator('[data-testid="ranker-card"]');
    await expect(rankerCard.getAttribute('data-state')).resolves.toBe('none');
    await expect(rankerCard.innerText()).resolves.toMatch(/not trained yet[\s\S]*once the history has 100 tasks[\s\S]*History: 3 past tasks/);
    expect(await rankerCard.locator('[data-testid="ranker-validation"]').count()).toBe(0);

    // An admin sets the conceptual weights elsewhere: the open page follows live (weights:updated), no reload.
    const conceptual = page.locator('[data-query-class="conceptual"]');
    const before = classes.find((c) => c.query_class === 'conceptual') as unknown as { current: { version: number } };
    await api().put('/v1/weights').send({ query_class: 'conceptual', weights: { 'file.dense': 2, 'file.keyword': 1, 'file.symbol': 0.5, 'task.dense': 1, 'task.keyword': 0.5, 'file.graph': 0 } }).expect(200);
    await conceptual.locator(`h3:has-text("v${before.current.version + 1}")`).waitFor();
    await conceptual.locator('.chart-line').first().waitFor({ state: 'attached' });
    await page.waitForSelector('.activity-list li:has-text("Fusion weights for conceptual")');
    await expect(conceptual.locator('svg.chart').first().getAttribute('aria-label')).resolves.toContain('semantic 40%');
    await shot(page, 'insights-light', true);
    const dark = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
    const p = await dark.newPage();
    await p.goto(`${t.url}/#/insights`);
    await p.locator('[data-query-class="conceptual"] .chart-line').first().waitFor({ state: 'attached' });
    // A tab opened after the fact still shows what the team did before: the finished index job, the ratings and the weights versions.
    await p.waitForSelector(`.activity-list li:has-text("Fusion weights for conceptual queries → v${before.current.version + 1} (admin)")`);
    await p.waitForSelector('.activity-list li:has-text("Indexed sample")');
    await p.waitForSelector('.activity-list li:has-text("local rated"):has-text("not relevant")');
    const feed = await p.locator('.activity-list li .activity-text').allInnerTexts();
    expect(new Set(feed).size).toBe(feed.length);
    await shot(p, 'insights-dark', true);
    await dark.close();
  });

  it('shows the latest published evaluation report on the insights page', async () => {
    const workspaceId = (await t.app.get(WorkspacesService).ensureDefault()).id;
    const strategy = (name: string, r10: number) => ({ name, queries: 40, p5: r10 / 4, p10: r10 / 8, r5: r10 * 0.8, r10, mrr: r10 * 0.7, ndcg10: r10 * 0.75, r10_delta: name === 'task_only' ? null : r10 - 0.6, r10_p_value: name === 'task_only' ? null : 0.01, latency_p50_ms: 5.5 });
    const chart = '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="120"><rect x="10" y="10" width="300" height="40" fill="#1f5fbf"/><script>window.pwned = true</script></svg>';
    await t.app.get(EvalReportsService).publish(workspaceId, { title: 'Sextant evaluation — koa', repo: 'koajs/koa', cutoff_date: '2024-01-31T00:00:00Z', queries: 40, baseline: 'task_only', default_strategy: 'weighted_default', strategies: [strategy('task_only', 0.6), strategy('file_only', 0.55), strategy('weighted_default', 0.8)], chart_svg: chart }, 'cli:test');
    await page.goto(`${t.url}/#/insights`);
    await page.reload(); // the previous test left this page on #/insights, with "no report yet" cached
    const card = page.locator('[data-testid="eval-report"]');
    await card.waitFor();
    await expect(card.locator('h3').innerText()).resolves.toBe('Sextant evaluation — koa');
    await expect(card.locator('tr[data-strategy="weighted_default"]').getAttribute('class')).resolves.toBe('is-default');
    await expect(card.locator('tr[data-strategy="weighted_default"] td').first().innerText()).resolves.toBe('0.800');
    await expect(card.locator('tr[data-strategy="file_only"] td').nth(4).innerText()).resolves.toBe('-0.050*');
    await page.waitForFunction(() => (document.querySelector('img.eval-chart') as any)?.naturalWidth > 0);
    // The chart is shown as an image, so a script inside a published SVG never runs.
    expect(await page.evaluate(() => (window as any).pwned)).toBeUndefined();
    await shot(page, 'insights-eval-report', true);
  });

  it('the insights page shows an active learned ranker: what it was fitted on and how it did against fusion', async () => {
    const workspaceId = (await t.app.get(WorkspacesService).ensureDefault()).id;
    const weights = FEATURE_NAMES.map((f) => (f === 'bm25.task.vote' ? 1.25 : f === 'kind.test' ? -0.5 : 0));
    const model = { featureNames: [...FEATURE_NAMES], mean: FEATURE_NAMES.map(() => 0), std: FEATURE_NAMES.map(() => 1), weights, calibration: { a: 1, b: 0 } };
    const validation = { queries: 40, ranker: { mrr: 0.712, r10: 0.845 }, fusion: { mrr: 0.655, r10: 0.83 } };
    await t.app.get(LearnedRankerService).save(workspaceId, model, { history_tasks: 160, examples: 160, rated_searches: 12, validation, message: 'Active: fitted for this test.' }, true);
    await page.goto(`${t.url}/#/insights`);
    await page.reload();
    const card = page.locator('[data-testid="ranker-card"][data-state="active"]');
    await card.waitFor();
    await expect(card.locator('h3').innerText()).resolves.toMatch(/active: it orders default searches · model v\d+/);
    await expect(card.locator('[data-testid="ranker-training"]').innerText()).resolves.toMatch(/\(160 when fitted\) · trained on 160 past tasks asked as queries and 12 rated searches/);
    await expect(card.locator('tr[data-order="ranker"]').innerText()).resolves.toMatch(/0\.712\s+0\.845/);
    await expect(card.locator('tr[data-order="fusion"]').innerText()).resolves.toMatch(/0\.655\s+0\.830/);
    await expect(card.locator('[data-testid="ranker-weights"]').innerText()).resolves.toBe('Leans on: bm25.task.vote +1.25 · kind.test -0.50');
    await shot(page, 'insights-ranker', true);
  });
});

describeBrowser('web dashboard in chromium (keys required)', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    ensureDashboardBuilt();
    t = await startTestApp({ env: KEYS_REQUIRED_ENV, listen: true });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('asks for a key, refuses a wrong one, stores a good one in localStorage and then works (REST and socket)', async () => {
    const { key } = await createKey(t, 'default', 'member', 'dana');
    const admin = (await createKey(t, 'default', 'admin', 'ops')).key;
    const reg = await request(t.app.getHttpServer()).post('/v1/repos').set('Authorization', `Bearer ${admin}`).send({ path: makeFixtureRepo(SAMPLE_PROJECT) }).expect(201);
    await waitFor(async () => (await request(t.app.getHttpServer()).get(`/v1/jobs/${reg.body.job.id}`).set('Authorization', `Bearer ${admin}`)).body.status === 'succeeded', { what: 'fixture indexed' });

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(t.url!);
    await page.waitForSelector('#api-key');
    await expect(page.locator('.key-prompt').innerText()).resolves.toContain('requires an API key');
    await shot(page, 'key-prompt');

    await page.locator('#api-key').fill('not-a-key');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[role="alert"]:has-text("start with")');
    await page.locator('#api-key').fill(`sxt_0123abcd_${'a'.repeat(40)}`);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[role="alert"]:has-text("Invalid API key")');
    expect(await page.evaluate(() => window.localStorage.getItem('sextant.apiKey'))).toBeNull();

    await page.locator('#api-key').fill(key);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#search-input');
    expect(await page.evaluate(() => window.localStorage.getItem('sextant.apiKey'))).toBe(key);
    await page.waitForSelector('.conn-connected'); // the socket handshake used the key

    // A reload keeps the key: straight to the dashboard.
    await page.reload();
    await page.waitForSelector('.conn-connected');
    expect(await page.locator('#api-key').count()).toBe(0);
    await expect(page.locator('.identity').innerText()).resolves.toContain('member');
    await page.locator('#search-input').fill('validate_token');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.search-status[data-status="done"]');
    await expect(page.locator('.result[data-path]').first().getAttribute('data-path')).resolves.toBe('src/auth/token.py');
    await shot(page, 'search-with-key-light');

    // "Forget key" goes back to the prompt and clears storage.
    await page.getByRole('button', { name: 'Forget key' }).click();
    await page.waitForSelector('#api-key');
    expect(await page.evaluate(() => window.localStorage.getItem('sextant.apiKey'))).toBeNull();
    await context.close();
  });
});
