/**
 * The file view's code graph panel in a real browser (Debian chromium driven by playwright-core):
 * a file's definitions link to their lines, a definition lists the places that use it (each a
 * link to that line of the calling file) and what it calls (each a link to the definition).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import request from 'supertest';
import { makeFixtureRepo } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;

const CHROMIUM = '/usr/bin/chromium';
const REPO_ROOT = path.resolve(__dirname, '../../../..');
const WEB_DIST = path.join(REPO_ROOT, 'apps/web/dist/index.html');
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) console.warn(`file symbols e2e SKIPPED: ${CHROMIUM} is missing (install Debian's chromium package)`);
const describeBrowser = haveChromium ? describe : describe.skip;

jest.setTimeout(180_000);

const FILES: Record<string, string> = {
  'pkg/__init__.py': 'from .store import save_record\n',
  'pkg/store.py': 'def save_record(record):\n    return record\n',
  'app/service.py': 'from pkg import save_record as persist\n\n\nclass Service:\n    def run(self):\n        persist(1)\n        return self.finish()\n\n    def finish(self):\n        return None\n',
};

describeBrowser('file view: symbols, references and callees (chromium)', () => {
  let t: TestApp;
  let browser: Browser;
  let repoId: string;

  beforeAll(async () => {
    if (!fs.existsSync(WEB_DIST)) execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: REPO_ROOT, stdio: 'inherit' });
    t = await startTestApp({ listen: true });
    const api = () => request(t.app.getHttpServer());
    const reg = await api().post('/v1/repos').send({ path: makeFixtureRepo(FILES), name: 'shop' }).expect(201);
    repoId = reg.body.id;
    await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'fixture indexed' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function openFile(filePath: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (err) => console.error('browser error:', err.message));
    await page.goto(`${t.url}/#/file?${new URLSearchParams({ repo: repoId, path: filePath })}`);
    await page.waitForSelector('.file-symbols .symbol-def');
    return page;
  }

  it('lists a definition, links it to its lines, and lists its callers as links to the calling line', async () => {
    const page = await openFile('pkg/store.py');
    const def = page.locator('.file-symbols .symbol-def', { hasText: 'save_record' });
    await expect(def.getAttribute('href')).resolves.toBe(`#/file?${new URLSearchParams({ repo: repoId, path: 'pkg/store.py', lines: '1-2' })}`);
    await page.locator('.symbol-item', { hasText: 'save_record' }).locator('.symbol-toggle').click();
    const sites = page.locator('.symbol-sites[aria-label="references to save_record"] li');
    await sites.first().waitFor();
    const texts = (await sites.allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim()).sort();
    expect(texts).toEqual(['app/service.py:1 imports it', 'app/service.py:6 Service.run calls it', 'pkg/__init__.py:1 imports it']);
    // Following the call site opens the calling file with that line marked.
    await sites.filter({ hasText: 'Service.run calls it' }).locator('a').click();
    await page.waitForFunction(() => window.location.hash.includes('path=app%2Fservice.py'));
    expect(new URLSearchParams((await page.evaluate(() => window.location.hash as string)).split('?')[1]).get('lines')).toBe('6');
    await page.waitForSelector('.file-symbols .symbol-def >> text=Service.run');
    await page.close();
  });

  it('lists what a method calls, each a link to the definition', async () => {
    const page = await openFile('app/service.py');
    await page.locator('.symbol-item', { hasText: 'Service.run' }).locator('.symbol-toggle').click();
    const calls = page.locator('.symbol-sites[aria-label="calls from run"] a');
    await calls.first().waitFor();
    const links = await calls.evaluateAll((as: any[]) => as.map((a) => `${a.textContent} ${a.getAttribute('href')}`));
    expect(links.sort()).toEqual(
      [`Service.finish #/file?${new URLSearchParams({ repo: repoId, path: 'app/service.py', lines: '9-10' })}`, `save_record #/file?${new URLSearchParams({ repo: repoId, path: 'pkg/store.py', lines: '1-2' })}`].sort(),
    );
    await page.close();
  });
});
