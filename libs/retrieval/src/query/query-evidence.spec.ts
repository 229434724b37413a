import { IndexedPathSet, extractQueryEvidence, firstParagraph, weightQueryTerms } from './index';

const PY_TRACE = `Calling app.test_client() fails after upgrading.

Traceback (most recent call last):
  File "/home/u/venv/lib/python3.11/site-packages/flask/app.py", line 2190, in wsgi_app
    response = self.full_dispatch_request()
  File "/home/u/venv/lib/python3.11/site-packages/flask/ctx.py", line 88, in push
    raise RuntimeError("Working outside of application context.")
RuntimeError: Working outside of application context.

See also src/flask/helpers.py and flask.sessions.SecureCookieSessionInterface.`;

describe('extractQueryEvidence', () => {
  it('finds Python frames with their functions, plain paths and dotted modules', () => {
    const { mentions } = extractQueryEvidence(PY_TRACE);
    expect(mentions).toEqual(
      expect.arrayContaining([
        { kind: 'frame', path: 'home/u/venv/lib/python3.11/site-packages/flask/app.py', symbol: 'wsgi_app' },
        { kind: 'frame', path: 'home/u/venv/lib/python3.11/site-packages/flask/ctx.py', symbol: 'push' },
        { kind: 'path', path: 'src/flask/helpers.py' },
        { kind: 'module', path: 'flask/sessions/SecureCookieSessionInterface' },
      ]),
    );
    // A frame's file is not listed again as a plain path.
    expect(mentions.filter((m) => m.path.endsWith('flask/app.py'))).toHaveLength(1);
  });

  it('finds JavaScript and Java frames', () => {
    const js = extractQueryEvidence('TypeError: x\n    at Layer.handle (/srv/app/node_modules/express/lib/router/layer.js:95:5)\n    at /srv/app/lib/utils.js:12:3');
    expect(js.mentions).toEqual(expect.arrayContaining([{ kind: 'frame', path: 'srv/app/node_modules/express/lib/router/layer.js', symbol: 'handle' }, { kind: 'frame', path: 'srv/app/lib/utils.js', symbol: undefined }]));
    const java = extractQueryEvidence('java.lang.NullPointerException\n\tat com.acme.web.Router.handle(Router.java:42)');
    expect(java.mentions).toContainEqual({ kind: 'frame', path: 'com/acme/web/Router.java', symbol: 'handle' });
  });

  it('finds nothing in plain prose', () => {
    expect(extractQueryEvidence('the session cookie is not refreshed when the user logs in').mentions).toEqual([]);
  });
});

describe('IndexedPathSet', () => {
  const set = new IndexedPathSet(['src/flask/app.py', 'src/flask/ctx.py', 'src/flask/helpers.py', 'src/flask/sessions.py', 'tests/test_app.py', 'docs/app.py', 'lib/router/layer.js', 'src/main/java/com/acme/web/Router.java']);

  it('maps frames from installed packages, paths and modules to the indexed files', () => {
    const files = set.resolve(extractQueryEvidence(PY_TRACE).mentions);
    expect(files.map((f) => f.path).sort()).toEqual(['src/flask/app.py', 'src/flask/ctx.py', 'src/flask/helpers.py', 'src/flask/sessions.py']);
    expect(files.find((f) => f.path === 'src/flask/app.py')).toMatchObject({ kind: 'frame', strength: 1 });
    expect(files.find((f) => f.path === 'src/flask/sessions.py')).toMatchObject({ kind: 'module' });
  });

  it('resolves JS and Java frames and weighs an ambiguous bare file name down', () => {
    expect(set.resolve(extractQueryEvidence('at Layer.handle (/x/node_modules/express/lib/router/layer.js:1:1)').mentions)[0]).toMatchObject({ path: 'lib/router/layer.js', strength: 1 });
    expect(set.resolve(extractQueryEvidence('at com.acme.web.Router.handle(Router.java:42)').mentions)[0]).toMatchObject({ path: 'src/main/java/com/acme/web/Router.java' });
    const bare = set.resolve([{ kind: 'path', path: 'app.py' }]);
    expect(bare.map((f) => f.path).sort()).toEqual(['docs/app.py', 'src/flask/app.py', 'tests/test_app.py'].filter((p) => p.endsWith('/app.py')).sort());
    expect(bare.every((f) => f.strength < 1)).toBe(true);
  });

  it('ignores paths that are not indexed', () => {
    expect(set.resolve([{ kind: 'frame', path: 'usr/lib/python3.11/threading.py' }])).toEqual([]);
  });
});

describe('weightQueryTerms', () => {
  it('keeps short queries whole and cuts long reports to the strongest terms', () => {
    expect(weightQueryTerms('refresh session cookie').terms.sort()).toEqual(['cookie', 'refresh', 'session']);
    const log = Array.from({ length: 400 }, (_, i) => `DEBUG worker ${i} heartbeat ok`).join('\n');
    const report = `SecureCookieSessionInterface drops the session cookie when SESSION_REFRESH_EACH_REQUEST is set\n\n${log}`;
    const { terms, distinctTerms } = weightQueryTerms(report, { maxTerms: 8 });
    expect(distinctTerms).toBeGreaterThan(8);
    expect(terms).toHaveLength(8);
    expect(terms).toContain('securecookiesessioninterface');
    expect(terms).toContain('session');
    expect(terms).not.toContain('the');
  });

  it('is deterministic', () => {
    const text = 'a b c parse_header ParseHeader header parse x y z';
    expect(weightQueryTerms(text)).toEqual(weightQueryTerms(text));
  });
});

describe('firstParagraph', () => {
  it('is the title of a multi-paragraph query, else null', () => {
    expect(firstParagraph('Cookies vanish behind a proxy\n\nTwo Cookie headers arrive; the second is lost.')).toBe('Cookies vanish behind a proxy');
    expect(firstParagraph('  Title  \n \t\n body')).toBe('Title');
    expect(firstParagraph('validate_token')).toBeNull();
    expect(firstParagraph('line one\nline two')).toBeNull();
    expect(firstParagraph('Only a title\n\n   ')).toBeNull();
    expect(firstParagraph(`${'x'.repeat(301)}\n\nbody`)).toBeNull();
    expect(firstParagraph(`${'x'.repeat(300)}\n\nbody`)).toBe('x'.repeat(300));
  });

  it('takes a heading line followed by a body without a blank line, but not a traceback header, a greeting or code', () => {
    expect(firstParagraph('Cookies vanish behind a proxy\nTwo Cookie headers arrive; the second one is lost on the way.')).toBe('Cookies vanish behind a proxy');
    expect(firstParagraph('Traceback (most recent call last):\n  File "app.py", line 3, in <module>\n    main()')).toBeNull();
    expect(firstParagraph('Hi team,\nthe cookie parser drops the second Cookie header behind our proxy.')).toBeNull();
    expect(firstParagraph('def parse(header):\n    return header.split(";")\n')).toBeNull();
    // Too little follows to make the first line a title.
    expect(firstParagraph('Cookies vanish behind a proxy\nsince 2.1')).toBeNull();
  });
});
