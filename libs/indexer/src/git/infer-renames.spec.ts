import { inferRenames } from './infer-renames';

const tasks = (...lists: string[][]) => lists.map((files) => ({ files }));

describe('inferRenames', () => {
  it('follows a package moved under src/ to the file that holds it today', () => {
    const history = tasks(['jinja2/utils.py', 'jinja2/lexer.py'], ['jinja2/utils.py'], ['src/jinja2/utils.py', 'src/jinja2/lexer.py'], ['src/jinja2/utils.py']);
    const moved = inferRenames(history, new Set(['src/jinja2/utils.py', 'src/jinja2/lexer.py', 'tests/test_utils.py']));
    expect(Object.fromEntries(moved)).toEqual({ 'jinja2/utils.py': 'src/jinja2/utils.py', 'jinja2/lexer.py': 'src/jinja2/lexer.py' });
  });

  it('follows private renames, test-suite moves, markup extensions and JavaScript converted to TypeScript', () => {
    const history = tasks(
      ['httpx/client.py', 'pkg/testsuite/urls.py', 'CHANGES', 'lib/parse.js'],
      ['httpx/_client.py', 'tests/test_urls.py', 'CHANGES.rst', 'src/parse.ts'],
    );
    const moved = inferRenames(history, new Set(['httpx/_client.py', 'tests/test_urls.py', 'pkg/urls.py', 'CHANGES.rst', 'src/parse.ts']));
    expect(moved.get('httpx/client.py')).toBe('httpx/_client.py');
    // The test module goes to the test file, never to the code file of the same name.
    expect(moved.get('pkg/testsuite/urls.py')).toBe('tests/test_urls.py');
    expect(moved.get('CHANGES')).toBe('CHANGES.rst');
    expect(moved.get('lib/parse.js')).toBe('src/parse.ts');
  });

  it('never merges two files that lived side by side', () => {
    // docs/utils.py changed throughout the years src/utils.py existed, then was deleted.
    const history = tasks(['src/utils.py'], ['docs/utils.py'], ['src/utils.py', 'docs/utils.py'], ['docs/utils.py'], ['src/utils.py'], ['docs/utils.py'], ['src/utils.py'], ['docs/utils.py'], ['src/utils.py']);
    expect(inferRenames(history, new Set(['src/utils.py'])).size).toBe(0);
  });

  it('allows a few old-name changes after the move, from a branch merged late', () => {
    const old = Array.from({ length: 30 }, () => ['click/core.py']);
    const history = tasks(...old, ['src/click/core.py'], ['click/core.py'], ['click/core.py'], ['src/click/core.py'], ['src/click/core.py']);
    expect(inferRenames(history, new Set(['src/click/core.py'])).get('click/core.py')).toBe('src/click/core.py');
  });

  it('prefers the candidate in the same directory, and leaves a true tie unmapped', () => {
    const history = tasks(['a/x/index.js'], ['b/x/index.js', 'c/y/index.js']);
    expect(inferRenames(history, new Set(['b/x/index.js', 'c/y/index.js'])).get('a/x/index.js')).toBe('b/x/index.js');
    const tie = tasks(['a/index.js'], ['b/index.js', 'c/index.js']);
    expect(inferRenames(tie, new Set(['b/index.js', 'c/index.js'])).size).toBe(0);
  });

  it('never takes a path first named after the file already changed for an old name of it', () => {
    const history = tasks(['src/auth/session.ts'], ['src/auth/session.ts'], ['xsrc/auth/session.ts', 'src/auth/session.tsx']);
    expect(inferRenames(history, new Set(['src/auth/session.ts'])).size).toBe(0);
  });

  it('leaves existing paths and paths with no counterpart alone', () => {
    const history = tasks(['setup.py', 'old/gone.py'], ['setup.py']);
    expect(inferRenames(history, new Set(['setup.py', 'pyproject.toml'])).size).toBe(0);
    expect(inferRenames(history, new Set()).size).toBe(0);
  });
});
