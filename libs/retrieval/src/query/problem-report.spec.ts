import { isProblemReport, liftCodeFirst } from './problem-report';

describe('isProblemReport', () => {
  it.each([
    ['a fenced code block', 'Crash on empty body\n\n```py\nclient.get("/")\n```'],
    ['a Python traceback', 'It fails:\nTraceback (most recent call last):\n  oops'],
    ['a stack frame without the header', 'Seen in prod\n  File "/srv/app/views.py", line 12, in index'],
    ['a JavaScript frame', 'TypeError thrown\n    at parse (/srv/app/lib/body.js:10:5)'],
    ['an exception line', 'Upgrading broke it\nValueError: invalid literal for int()'],
    ["pytest's E line", 'E       AssertionError: assert 1 == 2'],
    ['a shell prompt', 'To reproduce:\n$ flask run --reload'],
    ['a REPL session', '>>> from click import echo'],
  ])('is a report with %s', (_, text) => expect(isProblemReport(text)).toBe(true));

  it.each([
    ['a commit subject', 'Fix crash when the request body is empty'],
    ['a commit with a body', 'Fix TypeError in parse_date\n\nThe parser now accepts naive datetimes: ValueError is raised for the rest.'],
    ['a revert', 'Revert "Add retry on 502"\n\nThis reverts commit 0a1b2c3.'],
    ['inline code', 'Use `json.dumps` for the cache key'],
    ['a dollar amount', 'Invoices show $ 0 for refunds'],
  ])('is not a report: %s', (_, text) => expect(isProblemReport(text)).toBe(false));

  it('uses mentions already extracted from the query', () => {
    expect(isProblemReport('see the log', [{ kind: 'frame', path: 'app/views.py', symbol: 'index' }])).toBe(true);
    expect(isProblemReport('see app/views.py', [{ kind: 'path', path: 'app/views.py' }])).toBe(false);
  });

  it('answers a 65k-character text quickly (no backtracking blow-up)', () => {
    const long = `${'a'.repeat(30_000)}Error${'b.'.repeat(15_000)}`;
    const started = performance.now();
    expect(isProblemReport(long)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('liftCodeFirst', () => {
  it('lifts the first code file within the top 5 above the tests and docs ahead of it, and nothing else', () => {
    const out = liftCodeFirst([
      { path: 'tests/test_app.py', score: 0.6 },
      { path: 'docs/api.rst', score: 0.55 },
      { path: 'src/app.py', score: 0.5 },
      { path: 'tests/test_util.py', score: 0.4 },
      { path: 'src/util.py', score: 0.2 },
    ]);
    expect(out.map((f) => f.path)).toEqual(['src/app.py', 'tests/test_app.py', 'docs/api.rst', 'tests/test_util.py', 'src/util.py']);
    expect(out[0]).toEqual({ path: 'src/app.py', score: 0.6, liftedFrom: 3 });
    expect(out.slice(1).every((f) => !('liftedFrom' in f))).toBe(true);
    expect(out.map((f) => f.score)).toEqual([0.6, 0.6, 0.55, 0.4, 0.2]);
  });

  it('leaves the order alone when code already leads or none is in the top 5', () => {
    const codeFirst = [{ path: 'src/app.py', score: 0.9 }, { path: 'tests/test_app.py', score: 0.8 }];
    expect(liftCodeFirst(codeFirst)).toEqual(codeFirst);
    const deep = [...['a', 'b', 'c', 'd', 'e'].map((n, i) => ({ path: `tests/test_${n}.py`, score: 1 - i / 10 })), { path: 'src/app.py', score: 0.1 }];
    expect(liftCodeFirst(deep)).toEqual(deep);
    expect(liftCodeFirst([])).toEqual([]);
  });
});
