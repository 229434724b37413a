import { randomUUID } from 'node:crypto';
import { FEATURE_NAMES } from '@sextant/retrieval';
import { timeOrderedId } from '../../database/time-ordered-id';
import { CROSS_CHECK_FOLDS, CROSS_CHECK_MIN_TASKS, RankerTrainingService } from './ranker-training.service';
import { RankerFeatureLog } from './ranker-feature-log';
import type { HistoryCutoff, SearchService } from './search.service';
import type { LearnedRankerService, RankerReport } from './learned-ranker.service';
import type { TasksRepository } from '../task-history/tasks.repository';
import type { FilesRepository } from '../indexing/repositories/files.repository';
import type { RatedSearchesRepository } from './rated-searches.repository';

/** A service whose training examples wait until the test releases them. */
function setup() {
  const history = Array.from({ length: 150 }, (_, n) => ({ id: `T-${n}`, title: `task ${n}`, body: '', files: [`src/f${n % 10}.ts`], createdAt: new Date(Date.UTC(2024, 0, 1 + n)) }));
  const release: Array<() => void> = [];
  let examples = 0;
  let afterShutdown = 0;
  let closed = false;
  const search = {
    rankingExample: async () => {
      if (closed) afterShutdown++;
      examples++;
      await new Promise<void>((resolve) => release.push(resolve));
      if (closed) afterShutdown++; // what follows an example (its next query) would hit a closed database
      return [];
    },
  } as unknown as SearchService;
  const ranker = { settled: async () => undefined, status: async () => ({ state: 'none', history_tasks: 150 }) } as unknown as LearnedRankerService;
  const tasks = { listHistory: async () => history } as unknown as TasksRepository;
  const files = { listIndexed: async () => Array.from({ length: 10 }, (_, i) => ({ repositoryId: 'r', path: `src/f${i}.ts` })) } as unknown as FilesRepository;
  const rated = { list: async () => [], count: async () => 0 } as unknown as RatedSearchesRepository;
  const service = new RankerTrainingService(search, ranker, tasks, files, rated, new RankerFeatureLog());
  return { service, release, examples: () => examples, afterShutdown: () => afterShutdown, markClosed: () => (closed = true) };
}

describe('RankerTrainingService at shutdown', () => {
  it('waits for a training run to stop before the module (and the database after it) goes away', async () => {
    const s = setup();
    const run = s.service.train('ws').then(
      () => 'finished',
      (err: Error) => err.message,
    );
    while (s.examples() === 0) await new Promise((resolve) => setImmediate(resolve));
    let destroyed = false;
    const destroying = s.service.onModuleDestroy().then(() => (destroyed = true));
    await new Promise((resolve) => setImmediate(resolve));
    // The example in flight is still running: shutdown must not be over yet.
    expect(destroyed).toBe(false);
    s.release.shift()!();
    await destroying;
    s.markClosed();
    expect(await run).toBe('shutting down');
    // No example was started once shutdown began.
    expect(s.examples()).toBe(1);
    expect(s.afterShutdown()).toBe(0);
  });
});

describe('RankerTrainingService refits', () => {
  /** An active model fitted on 150 tasks when `seen` searches had a result rated up; `rated` have now. */
  function service(history: number, seen: number, rated: number, state: 'active' | 'none' = 'active', staleCalibration = false) {
    const ranker = {
      status: async () => (state === 'none' ? { state, history_tasks: history, trained_on_tasks: null, rated_searches: 0 } : { state, history_tasks: history, trained_on_tasks: 150, rated_searches: Math.min(seen, 200) }),
      lastReport: async () => ({ rated_seen: seen }),
      calibrationStale: async () => staleCalibration,
      staleCalibrations: async () => (staleCalibration ? ['ws'] : []),
    } as unknown as LearnedRankerService;
    const ratedSearches = { count: async () => rated } as unknown as RatedSearchesRepository;
    const s = new RankerTrainingService({} as SearchService, ranker, {} as TasksRepository, {} as FilesRepository, ratedSearches, new RankerFeatureLog());
    const train = jest.spyOn(s, 'train').mockResolvedValue({} as never);
    return { refit: () => s.trainIfDue('ws'), train };
  }

  it('after ten newly rated searches, counted from the last fit (not from the searches it could use)', async () => {
    // 250 rated searches when fitted, 200 of them used (the cap): five more is not yet a reason.
    const few = service(150, 250, 255);
    await few.refit();
    expect(few.train).not.toHaveBeenCalled();
    const ten = service(150, 250, 260);
    await ten.refit();
    expect(ten.train).toHaveBeenCalledWith('ws', {});
  });

  it('as soon as a workspace without a model has 100 past tasks', async () => {
    const short = service(99, 0, 0, 'none');
    expect(await short.refit()).toBeNull();
    expect(short.train).not.toHaveBeenCalled();
    const enough = service(100, 0, 0, 'none');
    await enough.refit();
    expect(enough.train).toHaveBeenCalledWith('ws', {});
  });

  it("when its model's probabilities were fitted by an older calibration method, even with no new history or ratings", async () => {
    const stale = service(150, 0, 0, 'active', true);
    await stale.refit();
    expect(stale.train).toHaveBeenCalledWith('ws', {});
    const current = service(150, 0, 0, 'active', false);
    expect(await current.refit()).toBeNull();
    expect(current.train).not.toHaveBeenCalled();
  });

  it('when the history grew by a fifth, whatever the ratings', async () => {
    const grown = service(180, 0, 0);
    await grown.refit();
    expect(grown.train).toHaveBeenCalled();
    const same = service(179, 0, 0);
    await same.refit();
    expect(same.train).not.toHaveBeenCalled();
  });
});

describe('RankerTrainingService acceptance', () => {
  /**
   * A history of `length` tasks whose answer is 13th in fusion's order and marked by the first
   * feature, except in the newest 100, where fusion already has it first and the feature marks
   * a wrong file: the newest quarter alone rejects the model, every list together does not.
   */
  async function fitOn(length: number) {
    const answerOf = (n: number) => (n >= length - 100 ? 0 : 12);
    const history = Array.from({ length }, (_, n) => ({ id: `T-${n}`, title: `task ${n}`, body: '', files: [`src/f${answerOf(n)}.ts`], createdAt: new Date(Date.UTC(2020, 0, 1) + n * 3_600_000) }));
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const search = {
      rankingExample: async (_ws: string, query: string) => {
        const n = Number(/task (\d+)/.exec(query)![1]);
        const marked = n >= length - 100 ? 3 : answerOf(n);
        return Array.from({ length: 16 }, (_, i) => {
          const features = new Float64Array(FEATURE_NAMES.length);
          features[0] = i === marked ? 1 : 0;
          features[1] = rand();
          return { path: `src/f${i}.ts`, features };
        });
      },
    } as unknown as SearchService;
    const saved: Array<{ accepted: boolean; report: RankerReport }> = [];
    const ranker = {
      settled: async () => undefined,
      save: async (_ws: string, _model: unknown, report: RankerReport, accepted: boolean) => void saved.push({ accepted, report }),
      status: async (_ws: string, message: string) => ({ state: saved.at(-1)?.accepted ? 'active' : 'rejected', message }),
    } as unknown as LearnedRankerService;
    const tasks = { listHistory: async () => history } as unknown as TasksRepository;
    const files = { listIndexed: async () => Array.from({ length: 16 }, (_, i) => ({ repositoryId: 'r', path: `src/f${i}.ts` })) } as unknown as FilesRepository;
    const rated = { list: async () => [], count: async () => 0 } as unknown as RatedSearchesRepository;
    const status = await new RankerTrainingService(search, ranker, tasks, files, rated, new RankerFeatureLog()).train('ws');
    return { status, ...saved[0] };
  }

  it('checks a long history again on every list, ranked out of fold, before rejecting its ranker', async () => {
    const long = await fitOn(CROSS_CHECK_MIN_TASKS);
    expect(long.report.validation!.ranker.mrr).toBeLessThan(long.report.validation!.fusion.mrr - 0.02);
    expect(long.report.validation!.cross_check).toMatchObject({ queries: 400, folds: CROSS_CHECK_FOLDS });
    expect(long.accepted).toBe(true);
    expect(long.status.state).toBe('active');
    expect(long.status.message).toMatch(/checked again on all 400 past tasks/);
  }, 30_000);

  it('rejects on the newest quarter alone when the history is shorter', async () => {
    const short = await fitOn(CROSS_CHECK_MIN_TASKS - 1);
    expect(short.report.validation!.cross_check).toBeUndefined();
    expect(short.accepted).toBe(false);
    expect(short.status.message).toMatch(/^Rejected: .*did not beat fusion/);
  }, 30_000);
});

describe('RankerTrainingService history cut', () => {
  /** Fits on `history` and returns, per training query, the task it was made from and the cut it was asked with. */
  async function cutsFor(history: Array<{ id: string; title: string; body: string; files: string[]; createdAt: Date | null }>) {
    const asked: Array<{ task: number; hidden: HistoryCutoff['hiddenTasks']; position: number }> = [];
    const search = {
      rankingExample: async (_ws: string, query: string, cutoff: HistoryCutoff) => {
        asked.push({ task: Number(/task (\d+)/.exec(query)![1]), hidden: cutoff.hiddenTasks, position: cutoff.position });
        return Array.from({ length: 4 }, (_, i) => ({ path: `src/f${i}.ts`, features: new Float64Array(FEATURE_NAMES.length) }));
      },
    } as unknown as SearchService;
    const ranker = { settled: async () => undefined, save: async () => undefined, status: async (_ws: string, message: string) => ({ state: 'rejected', message }) } as unknown as LearnedRankerService;
    const tasks = { listHistory: async () => history } as unknown as TasksRepository;
    const files = { listIndexed: async () => Array.from({ length: 4 }, (_, i) => ({ repositoryId: 'r', path: `src/f${i}.ts` })) } as unknown as FilesRepository;
    const rated = { list: async () => [], count: async () => 0 } as unknown as RatedSearchesRepository;
    const status = await new RankerTrainingService(search, ranker, tasks, files, rated, new RankerFeatureLog()).train('ws');
    return Object.assign(asked, { message: status.message });
  }

  // Undated tasks (a ticket export without timestamps) are stored with time-ordered row ids, in the order they were imported.
  const undated = (length: number, files: (n: number) => string[]) => Array.from({ length }, (_, n) => ({ id: timeOrderedId(), title: `task ${n}`, body: '', files: files(n), createdAt: null }));

  it('trains on a history without dates, and no training query sees its own task or any later one', async () => {
    const history = undated(300, (n) => [`src/f${n % 4}.ts`]);
    const asked = await cutsFor(history);
    expect(asked).toHaveLength(280);
    for (const { task, hidden, position } of asked) {
      expect(position).toBeLessThanOrEqual(task);
      expect(hidden.has(history[task].id)).toBe(true);
      expect(hidden.has(history[299].id)).toBe(true);
      // Everything before the position stays visible: the cut is exactly where the history features stop.
      expect(hidden.size).toBe(300 - position);
      if (position > 0) expect(hidden.has(history[position - 1].id)).toBe(false);
    }
  });

  it('does not ask undated tasks stored with random ids (by earlier versions) as training queries: their order is unknown', async () => {
    const legacy = Array.from({ length: 300 }, (_, n) => ({ id: randomUUID(), title: `task ${n}`, body: '', files: [`src/f${n % 4}.ts`], createdAt: null }));
    const asked = await cutsFor(legacy);
    expect(asked).toHaveLength(0);
    expect(asked.message).toMatch(/have 300 tasks, 0 usable; 300 tasks without dates were imported before Sextant kept the order of such tasks/);
  });

  it('does not train on a history without dates that is listed newest first, and says how to fix it', async () => {
    // The oldest tasks (listed last) name files deleted since: src/f4.ts and src/f5.ts are not indexed.
    const history = undated(300, (n) => [n >= 225 ? `src/f${4 + (n % 2)}.ts` : `src/f${n % 4}.ts`]);
    const backwards = await cutsFor(history);
    expect(backwards).toHaveLength(0);
    expect(backwards.message).toBe(
      'Not trained: the history has no dates and seems to be listed newest first (100% of its first quarter of tasks name a file that is indexed today, against 0% of its last quarter). Tasks without dates are read oldest first, in the order imported: import them oldest first, or with their dates. Searches use plain fusion.',
    );
    // The same tasks imported oldest first train as usual.
    expect((await cutsFor(undated(300, (n) => [n < 75 ? `src/f${4 + (n % 2)}.ts` : `src/f${n % 4}.ts`]))).length).toBeGreaterThan(0);
  });

  it('in a history that mixes dated tasks with undated ones listed newest first, asks only the dated ones, and says why', async () => {
    // An export whose older tickets lost their dates, written newest first: the last of them name files deleted since.
    const dated = Array.from({ length: 200 }, (_, n) => ({ id: `D-${n}`, title: `task ${300 + n}`, body: '', files: [`src/f${n % 4}.ts`], createdAt: new Date(Date.UTC(2024, 0, 1, 0, n)) }));
    const mixed = [...undated(120, (n) => [n >= 90 ? `src/f${4 + (n % 2)}.ts` : `src/f${n % 4}.ts`]), ...dated];
    const asked = await cutsFor(mixed);
    expect(asked).toHaveLength(200);
    expect(asked.every(({ task }) => task >= 300)).toBe(true);
    expect(asked.message).toMatch(/ The 120 tasks without dates seem listed newest first \(100% of their first quarter of tasks name a file that is indexed today, against 0% of their last quarter\), so none of them was asked as a training query: import them oldest first, or with their dates\.$/);
    // Listed oldest first, they are asked too.
    const oldestFirst = await cutsFor([...undated(120, (n) => [n < 30 ? `src/f${4 + (n % 2)}.ts` : `src/f${n % 4}.ts`]), ...dated]);
    expect(oldestFirst.some(({ task }) => task < 120)).toBe(true);
    expect(oldestFirst.message).not.toMatch(/without dates/);
  });

  it('cuts tasks of the same second by their place in the history, not by their date', async () => {
    // A rebased series: every commit has the same date.
    const history = Array.from({ length: 150 }, (_, n) => ({ id: `row-${n}`, title: `task ${n}`, body: '', files: [`src/f${n % 4}.ts`], createdAt: new Date('2024-05-01T12:00:00Z') }));
    const asked = await cutsFor(history);
    expect(asked.length).toBeGreaterThanOrEqual(100);
    for (const { task, hidden, position } of asked) {
      expect(hidden.has(`row-${task}`)).toBe(true);
      expect(hidden.size).toBe(150 - position);
    }
  });
});
