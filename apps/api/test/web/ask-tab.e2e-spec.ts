/**
 * The dashboard's Ask tab in a real browser (Debian chromium via playwright-core) against the
 * real app and an OpenAI-compatible chat server written in the test: the answer streams in,
 * every [n] links to the file view at the cited lines (or the task), and without a chat model
 * the tab says how to configure one.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import request from 'supertest';
import { bearer, createKey, KEYS_REQUIRED_ENV } from '../auth/auth-helpers';
import { makeFixtureRepo } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';
import { SHOP, SHOP_TASKS } from '../mcp/mcp-fixture';
import { FakeChatServer, sourceNumber } from '../ask/fake-chat-server';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;

const CHROMIUM = '/usr/bin/chromium';
const REPO_ROOT = path.resolve(__dirname, '../../../..');
const WEB_ASSETS = path.join(REPO_ROOT, 'apps/web/dist/assets');
const SHOTS = process.env.SEXTANT_SHOTS_DIR ?? '/tmp/shots';
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) console.warn(`Ask tab e2e SKIPPED: ${CHROMIUM} is missing`);
const describeBrowser = haveChromium ? describe : describe.skip;

jest.setTimeout(180_000);

/** Builds the dashboard when there is no build, or one from before the Ask tab. */
function ensureDashboardBuilt(): void {
  const built = fs.existsSync(WEB_ASSETS) && fs.readdirSync(WEB_ASSETS).some((f) => f.endsWith('.js') && fs.readFileSync(path.join(WEB_ASSETS, f), 'utf8').includes('ask:start'));
  if (!built) execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: REPO_ROOT, stdio: 'inherit' });
}

describeBrowser('dashboard Ask tab in chromium', () => {
  let browser: Browser;
  let chat: FakeChatServer;
  const apps: TestApp[] = [];

  async function open(t: TestApp, key: string, hash: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript((k: string) => window.localStorage.setItem('sextant.apiKey', k), key);
    const page = await context.newPage();
    page.on('pageerror', (err) => console.error('browser error:', err.message));
    await page.goto(`${t.url}/${hash}`);
    await page.waitForSelector('.conn-connected');
    return page;
  }

  beforeAll(async () => {
    ensureDashboardBuilt();
    chat = await new FakeChatServer().start();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  });

  afterAll(async () => {
    await browser?.close();
    for (const t of apps) await t.close();
    await chat?.stop();
  });

  it('streams a cited answer; [n] opens the file view at the cited lines, the task link opens the task', async () => {
    const t = await startTestApp({ env: { ...KEYS_REQUIRED_ENV, CHAT_BASE_URL: chat.url, CHAT_MODEL: 'fake-model' }, listen: true });
    apps.push(t);
    const admin = (await createKey(t, 'default', 'admin')).key;
    const reader = (await createKey(t, 'default', 'reader')).key;
    const reg = await request(t.app.getHttpServer()).post('/v1/repos').set(bearer(admin)).send({ path: makeFixtureRepo(SHOP, { git: true }), name: 'shop' }).expect(201);
    await waitFor(async () => (await request(t.app.getHttpServer()).get(`/v1/jobs/${reg.body.job.id}`).set(bearer(admin))).body.status === 'succeeded', { what: 'index', timeoutMs: 60000 });
    await request(t.app.getHttpServer()).post('/v1/tasks').set(bearer(admin)).send({ tasks: SHOP_TASKS }).expect(201);

    let fileN = 0;
    chat.enqueue({
      respond: (body) => {
        fileN = sourceNumber(body, 'src/auth/session.ts')!;
        const taskN = sourceNumber(body, 'T-103')!;
        return { tokens: ['Sessions are refreshed by ', '`SessionStore.refresh` ', `[${fileN}]`, '; early logouts were ', `reported in T-103 [${taskN}].`], delayMs: 150 };
      },
    });
    const page = await open(t, reader, '#/ask');
    await page.locator('nav').getByRole('link', { name: 'Ask', exact: true }).waitFor();
    await page.locator('#ask-input').fill('How are login sessions refreshed?');
    await page.keyboard.press('Enter');
    // Streaming: part of the answer is on screen before it is done.
    await page.waitForFunction(() => window.document.querySelector('.ask-answer[data-status="streaming"] .ask-text')?.textContent?.includes('Sessions are refreshed'));
    await page.waitForSelector('.ask-answer[data-status="done"]');
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'ask-answer.png') });

    expect(await page.locator('.ask-text').textContent()).toContain('SessionStore.refresh');
    const cite = page.locator('.ask-text a.cite', { hasText: `[${fileN}]` });
    const href = (await cite.getAttribute('href'))!;
    expect(href).toMatch(/^#\/file\?repo=[0-9a-f-]+&path=src%2Fauth%2Fsession\.ts&lines=\d+-\d+$/);
    const sources = page.locator('.ask-citations li');
    expect(await sources.count()).toBe(2);
    expect(await sources.nth(0).textContent()).toMatch(/^\[\d+\] shop\/src\/auth\/session\.ts:\d+-\d+$/);
    expect(await page.locator('.ask-citations a', { hasText: 'T-103' }).getAttribute('href')).toBe('#/tasks?id=T-103');
    expect(await page.locator('.ask-steps li').count()).toBeGreaterThanOrEqual(2);

    await cite.click();
    await page.waitForFunction(() => window.location.hash.startsWith('#/file?'));
    expect(await page.evaluate(() => window.location.hash)).toBe(href);
  });

  it('without a chat model the tab says how to configure one', async () => {
    const t = await startTestApp({ env: KEYS_REQUIRED_ENV, listen: true });
    apps.push(t);
    const reader = (await createKey(t, 'default', 'reader')).key;
    const page = await open(t, reader, '#/ask');
    const disabled = page.locator('[data-ask="disabled"]');
    await disabled.waitFor();
    const text = (await disabled.textContent())!;
    expect(text).toMatch(/Ask is disabled/);
    expect(text).toMatch(/CHAT_MODEL/);
    expect(text).toMatch(/CHAT_BASE_URL/);
    expect(await page.locator('#ask-input').count()).toBe(0);
  });
});
