import type { SearchSource } from '@sextant/contracts';
import { SearchService } from '../../src/modules/fusion/search.service';
import type { TestApp } from './test-app';

/**
 * Holds one search source back until `release()` (or `maxMs`, when given), so it answers last
 * however loaded the machine is. `restore()` removes the hold.
 */
export function holdSource(t: TestApp, held: SearchSource, options: { maxMs?: number } = {}): { release: () => void; restore: () => void } {
  const search = t.app.get(SearchService) as unknown as { execute: (s: SearchSource, ...rest: unknown[]) => Promise<unknown> };
  const original = search.execute.bind(search);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const spy = jest.spyOn(search, 'execute').mockImplementation(async (source: SearchSource, ...rest: unknown[]) => {
    if (source === held) await (options.maxMs === undefined ? gate : Promise.race([gate, new Promise((r) => setTimeout(r, options.maxMs))]));
    return original(source, ...rest);
  });
  return { release, restore: () => spy.mockRestore() };
}
