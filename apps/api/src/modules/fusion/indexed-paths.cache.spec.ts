import { IndexedPathsCache, type IndexedFileRow } from './indexed-paths.cache';

const row = (path: string, repositoryId = 'r1'): IndexedFileRow => ({ repositoryId, path, lang: 'ts' });

describe('IndexedPathsCache', () => {
  let now = 0;
  let loads: string[][];
  let table: IndexedFileRow[];
  const load = async (paths: string[]) => {
    loads.push(paths);
    return table.filter((r) => paths.includes(r.path));
  };
  const cache = () => new IndexedPathsCache({ ttlMs: 1000, maxPathsPerWorkspace: 100, now: () => now });
  beforeEach(() => {
    now = 0;
    loads = [];
    table = [row('a.ts'), row('b.ts'), row('b.ts', 'r2')];
  });

  it('loads only unknown paths, remembers paths without files, and keeps workspaces apart', async () => {
    const c = cache();
    expect(await c.lookup('ws1', ['a.ts', 'gone.ts', 'a.ts'], load)).toEqual([row('a.ts')]);
    expect(await c.lookup('ws1', ['a.ts', 'gone.ts', 'b.ts'], load)).toEqual([row('a.ts'), row('b.ts'), row('b.ts', 'r2')]);
    expect(loads).toEqual([['a.ts', 'gone.ts'], ['b.ts']]);
    await c.lookup('ws2', ['a.ts'], load);
    expect(loads).toHaveLength(3);
  });

  it('reads again after an invalidation and after the time limit', async () => {
    const c = cache();
    await c.lookup('ws1', ['a.ts'], load);
    table = [];
    c.invalidate('ws1');
    expect(await c.lookup('ws1', ['a.ts'], load)).toEqual([]);
    table = [row('a.ts')];
    now = 500;
    expect(await c.lookup('ws1', ['a.ts'], load)).toEqual([]); // still the cached answer
    now = 1500;
    expect(await c.lookup('ws1', ['a.ts'], load)).toEqual([row('a.ts')]);
  });

  it('does not keep rows read before an invalidation that landed during the read', async () => {
    const c = cache();
    let release!: () => void;
    const slow = async (paths: string[]) => {
      await new Promise<void>((r) => (release = r));
      return load(paths);
    };
    const pending = c.lookup('ws1', ['a.ts'], slow);
    await Promise.resolve();
    c.invalidate('ws1');
    release();
    expect(await pending).toEqual([row('a.ts')]); // the search that started earlier sees what it read
    table = [];
    expect(await c.lookup('ws1', ['a.ts'], load)).toEqual([]); // but nothing stale was stored
  });
});
