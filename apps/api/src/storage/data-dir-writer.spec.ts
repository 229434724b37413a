import * as fs from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireDataDir, currentWriter, DataDirBusyError } from './data-dir-writer';

describe('acquireDataDir', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(join(tmpdir(), 'sextant-writer-'))));
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('puts the claim in place whole, leaves nothing else behind, and refuses a second writer until released', () => {
    const lease = acquireDataDir(dir, { role: 'server', command: 'sextant serve' });
    expect(fs.readdirSync(dir)).toEqual(['writer.json']);
    expect(JSON.parse(fs.readFileSync(join(dir, 'writer.json'), 'utf8'))).toMatchObject({ pid: process.pid, role: 'server', token: expect.stringMatching(/^sxo_/) });
    expect(() => acquireDataDir(dir, { role: 'cli', command: 'sextant index .' })).toThrow(DataDirBusyError);
    lease.update({ url: 'http://127.0.0.1:1234' });
    expect(currentWriter(dir)).toMatchObject({ pid: process.pid, url: 'http://127.0.0.1:1234' });
    lease.release();
    expect(fs.readdirSync(dir)).toEqual([]);
    acquireDataDir(dir, { role: 'cli', command: 'sextant index .' }).release();
  });

  it('never links over a claim another process made first', () => {
    fs.writeFileSync(join(dir, 'writer.json'), JSON.stringify({ pid: process.pid, hostname: hostname(), role: 'server', command: 'x', started_at: new Date().toISOString() }));
    expect(() => acquireDataDir(dir, { role: 'cli', command: 'sextant index .' })).toThrow(DataDirBusyError);
    expect(fs.readdirSync(dir)).toEqual(['writer.json']);
  });
});
