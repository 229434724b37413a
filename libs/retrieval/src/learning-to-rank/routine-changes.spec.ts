import { ChangeHistory, ROUTINE_PLACES, changeTemplate, keepRoutineInTop, type RoutineChanges } from './index';

describe('changeTemplate', () => {
  it('masks what differs between repetitions of one routine change', () => {
    expect(changeTemplate('Version 0.27.0 (#2147)\n\n* Version 0.27.0\n* Update release-notes.md')).toBe('version <n>');
    expect(changeTemplate('Version 0.26.0.post1 (#2073)')).toBe('version <n>');
    expect(changeTemplate('Bumped v4.12.0')).toBe('bumped <n>');
    expect(changeTemplate('Bump actions/checkout from 3 to 4')).toBe('bump actions/checkout from <n> to <n>');
    expect(changeTemplate('Start version 8.1.4')).toBe('start version <n>');
    expect(changeTemplate('Revert 1a2b3c4d')).toBe('revert <sha>');
    expect(changeTemplate('3.22.4')).toBe('<n>');
  });

  it('keeps the words, so different changes get different templates', () => {
    expect(changeTemplate('Fix #123: cookies lost on redirect')).toBe('fix #<n>: cookies lost on redirect');
    expect(changeTemplate('Fix cookie parsing')).not.toBe(changeTemplate('Fix header parsing'));
    // Digits inside a word are part of the word.
    expect(changeTemplate('Support py3 and utf8 paths')).toBe('support py3 and utf8 paths');
  });

  it('gives nothing for a subject without words or numbers', () => {
    expect(changeTemplate('')).toBe('');
    expect(changeTemplate('   \n\n ...')).toBe('');
  });
});

describe('ChangeHistory.routineChanges', () => {
  const release = (v: string, files: string[]) => ({ title: `Version ${v} (#${v.replace(/\./g, '')})`, files });
  const h = new ChangeHistory([
    release('0.1.0', ['pkg/__init__.py']),
    { title: 'Fix cookie parsing', files: ['pkg/cookies.py'] },
    release('0.2.0', ['pkg/__init__.py', 'CHANGES.md']),
    release('0.3.0', ['pkg/__init__.py', 'CHANGES.md']),
    release('0.4.0', ['pkg/__init__.py', 'CHANGES.md']),
    release('0.5.0', ['pkg/__init__.py', 'CHANGES.md']),
    release('0.6.0', ['pkg/__init__.py', 'CHANGES.md', 'setup.py']),
  ]);

  it('counts what the newest five same-template changes touched', () => {
    const routine = h.routineChanges('version <n>')!;
    expect(routine.window).toBe(5);
    expect(routine.touched.get('CHANGES.md')).toBe(5);
    expect(routine.touched.get('pkg/__init__.py')).toBe(5);
    expect(routine.touched.get('setup.py')).toBe(1);
    expect(routine.touched.has('pkg/cookies.py')).toBe(false);
  });

  it('sees only the history before a position, and needs three such changes', () => {
    expect(h.routineChanges('version <n>', 3)).toBeNull();
    const early = h.routineChanges('version <n>', 4)!;
    expect(early.window).toBe(3);
    expect(early.touched.get('pkg/__init__.py')).toBe(3);
    expect(early.touched.get('CHANGES.md')).toBe(2);
    expect(h.routineChanges('fix cookie parsing')).toBeNull();
    expect(h.routineChanges('')).toBeNull();
  });
});

describe('keepRoutineInTop', () => {
  const ranked = Array.from({ length: 15 }, (_, i) => ({ path: `f${i + 1}.py`, score: 1 - i / 20 }));
  const routine = (touched: Array<[string, number]>, window = 5): RoutineChanges => ({ template: 'version <n>', window, touched: new Map(touched) });

  it('moves a routine file from below the top places to their end; scores stay in place order', () => {
    const out = keepRoutineInTop(ranked, routine([['f14.py', 5], ['f1.py', 5]]));
    expect(out.map((f) => f.path).slice(0, ROUTINE_PLACES + 1)).toEqual(['f1.py', 'f2.py', 'f3.py', 'f4.py', 'f5.py', 'f6.py', 'f7.py', 'f8.py', 'f9.py', 'f14.py', 'f10.py']);
    expect(out[9].routine).toEqual({ touched: 5, window: 5, template: 'version <n>', from: 14 });
    // The file already in the top places is left where it was, without a routine mark.
    expect(out[0].routine).toBeUndefined();
    expect(out.map((f) => f.score)).toEqual(ranked.map((f) => f.score));
    expect(out).toHaveLength(ranked.length);
  });

  it('takes only files most of the routine touched, most often touched first, at most three', () => {
    expect(keepRoutineInTop(ranked, routine([['f12.py', 2]])).map((f) => f.path)).toEqual(ranked.map((f) => f.path));
    const many = keepRoutineInTop(ranked, routine([['f11.py', 3], ['f12.py', 5], ['f13.py', 4], ['f15.py', 5]]));
    expect(many.slice(7, 10).map((f) => f.path)).toEqual(['f12.py', 'f15.py', 'f13.py']);
    expect(many.slice(10).map((f) => f.path)).toEqual(['f8.py', 'f9.py', 'f10.py', 'f11.py', 'f14.py']);
  });

  it('makes room with the other files of the top places, never with routine files already there', () => {
    const out = keepRoutineInTop(ranked, routine([['f9.py', 5], ['f10.py', 4], ['f12.py', 5]]));
    // f8 is the lowest-ranked top file outside the routine: it gives its place to f12.
    expect(out.slice(0, 10).map((f) => f.path)).toEqual(['f1.py', 'f2.py', 'f3.py', 'f4.py', 'f5.py', 'f6.py', 'f7.py', 'f9.py', 'f10.py', 'f12.py']);
    expect(out.slice(10, 12).map((f) => f.path)).toEqual(['f8.py', 'f11.py']);
    expect(out.map((f) => f.score)).toEqual(ranked.map((f) => f.score));
    // A top 10 made only of routine files stays as it is.
    const all = routine(ranked.map((f) => [f.path, 5] as [string, number]));
    expect(keepRoutineInTop(ranked, all).map((f) => f.path)).toEqual(ranked.map((f) => f.path));
  });

  it('leaves a list without a routine, or too short to have anything below the top places, as it was', () => {
    expect(keepRoutineInTop(ranked, null)).toEqual(ranked);
    expect(keepRoutineInTop(ranked.slice(0, 10), routine([['f10.py', 5]]))).toEqual(ranked.slice(0, 10));
  });
});
