import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireDataDir, currentWriter, DataDirBusyError } from './data-dir-writer';

// A file system without hard links (some network and FUSE mounts): every link fails with EPERM.
jest.mock('node:fs', () => {
  const actual = jest.requireActual<typeof import('node:fs')>('node:fs');
  return {
    ...actual,
    linkSync: jest.fn(() => {
      throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
    }),
  };
});

describe('acquireDataDir without hard links', () => {
  it('claims with an exclusive write instead, and still refuses a second writer', () => {
    const dir = fs.mkdtempSync(join(tmpdir(), 'sextant-writer-nolink-'));
    try {
      const lease = acquireDataDir(dir, { role: 'cli', command: 'sextant index .' });
      expect(fs.linkSync).toHaveBeenCalledTimes(1);
      expect(currentWriter(dir)).toMatchObject({ pid: process.pid, role: 'cli' });
      expect(fs.readdirSync(dir)).toEqual(['writer.json']);
      expect(() => acquireDataDir(dir, { role: 'server', command: 'sextant serve' })).toThrow(DataDirBusyError);
      lease.release();
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
