/**
 * The dashboard in chromium: an admin adds a GitHub-like MCP server in Settings, tests it,
 * then a search shows that server's live results as external results with their URLs,
 * beside the indexed code, each card with its reranker band (RERANK_BY_DEFAULT).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import request from 'supertest';
import { makeFixtureRepo, SAMPLE_PROJECT } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';
import { startHttpStub, type HttpStub } from './stub-servers';

const CHROMIUM = '/usr/bin/chromium';
const REPO_ROOT = path.resolve(__dirname, '../../../..');
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) console.warn(`dashboard external-sources e2e SKIPPED: ${CHROMIUM} is missing`);
const describeBrowser = haveChromium ? describe : describe.skip;
jest.setTimeout(180_000);

describeBrowser('external MCP sources in the dashboard (chromium, local mode)', () => {
  let t: TestApp;
  let browser: Browser;
  let stub: HttpStub;

  beforeAll(async () => {
    if (!fs.existsSync(path.join(REPO_ROOT, 'apps/web/dist/index.html'))) execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: REPO_ROOT, stdio: 'inherit' });
    // RERANK_BY_DEFAULT: the dashboard's searches do not send `rerank`; the operator turns it on for everyone.
    t = await startTestApp({ env: { PATH: process.env.PATH!, SEXTANT_CLONE_ALLOWED_HOSTS: '127.0.0.1', RERANK_BY_DEFAULT: 'true' }, listen: true });
    const reg = await request(t.app.getHttpServer()).post('/v1/repos').send({ path: makeFixtureRepo(SAMPLE_PROJECT), name: 'shop' }).expect(201);
    await waitFor(async () => (await request(t.app.getHttpServer()).get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'index' });
    stub = await startHttpStub({ files: [{ repo: 'other/lib', path: 'docs/session-guide.md', content: 'How session refresh works in the other library: call refreshSession before expiry.' }] });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await stub?.close();
  });

  it('adds a server in Settings, tests it, and shows its results with their URL next to indexed code', async () => {
    const page = await browser.newPage();
    await page.goto(`${t.url!}/#/settings`);
    const section = page.locator('[data-section="external-sources"]');
    await section.waitFor();
    await section.getByLabel('name').fill('github');
    await section.getByLabel('url').fill(stub.url);
    await section.getByLabel('headers').fill('X-Api-Key: stub-key');
    await section.getByRole('button', { name: 'Add' }).click();
    const row = section.locator('tr[data-source="mcp.github"]');
    await row.waitFor();
    await row.getByRole('button', { name: 'Test' }).click();
    await expect(row.getByRole('status').filter({ hasText: /ok · search_code · \d+ result/ }).waitFor()).resolves.toBeUndefined();
    // The header value is write-only.
    expect(await section.innerText()).not.toContain('stub-key');

    await page.goto(`${t.url!}/#/search`);
    await page.locator('#search-input').fill('session refresh');
    await page.keyboard.press('Enter');
    const card = page.locator('.external-result[data-source="mcp.github"]');
    await card.waitFor();
    await expect(card.locator('a.external-url').getAttribute('href')).resolves.toBe('https://github.example/other/lib/blob/main/docs/session-guide.md');
    await expect(card.innerText()).resolves.toContain('call refreshSession before expiry');
    // Indexed code is still there, first, and every card shows its reranker band.
    const session = page.locator('.result[data-path="src/auth/session.ts"]');
    await expect(session.count()).resolves.toBe(1);
    await expect(session.locator('.rerank-badge').innerText()).resolves.toMatch(/^(excellent|good) \d\.\d$/);
    await expect(card.locator('.rerank-badge').getAttribute('data-band')).resolves.toMatch(/^(excellent|good|fair|poor)$/);
    fs.mkdirSync(path.join(REPO_ROOT, 'artifacts/screenshots'), { recursive: true });
    await page.screenshot({ path: path.join(REPO_ROOT, 'artifacts/screenshots/search-external-results.png'), fullPage: true });
    expect(stub.requests.every((h) => h['x-api-key'] === 'stub-key')).toBe(true);
  });
});
