/**
 * The dashboard's syntax highlighter (apps/web/src/lib/highlight.ts). It lives in the web
 * app, which has no test runner of its own; Jest picks it up here.
 */
import * as path from 'node:path';
import fc from 'fast-check';
import type * as HighlightModule from '../../../web/src/lib/highlight.js' with { 'resolution-mode': 'import' };

// apps/web is an ES module package, so tsc (node16) refuses a static CommonJS import of it;
// Jest's SWC transform loads the TypeScript source either way.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { tokenize, highlightLines, languageFor } = require(path.join(__dirname, '../../../web/src/lib/highlight.ts')) as typeof HighlightModule;
type Token = HighlightModule.Token;

const LANGS = ['typescript', 'javascript', 'python', 'go', 'java', 'rust', null] as const;
const typed = (tokens: Token[], type: Token['type']) => tokens.filter((t) => t.type === type).map((t) => t.text);

describe('dashboard syntax highlighter', () => {
  it('never loses or invents text: tokens concatenate to the input, and lines to the input split at newlines', () => {
    const codeLike = fc.stringMatching(/^[\s\S]{0,300}$/);
    const fragments = fc.array(fc.constantFrom('"', "'", '`', '/*', '*/', '//', '#', '"""', '\\', '\n', 'class ', 'def ', '0x1F', '1.5e3', 'r"a"', "'a'", "'lt ", '<script>', '&amp;', 'x'), { maxLength: 40 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.oneof(codeLike, fragments), fc.constantFrom(...LANGS), (code, lang) => {
        expect(tokenize(code, lang).map((t) => t.text).join('')).toBe(code);
        expect(highlightLines(code, lang).map((line) => line.map((t) => t.text).join(''))).toEqual(code.split('\n'));
      }),
      { numRuns: 400 },
    );
  });

  it('marks keywords, strings, comments and numbers per language', () => {
    const ts = tokenize('export const limit = 42; // max\nconst s = `a ${b}`;', 'typescript');
    expect(typed(ts, 'keyword')).toEqual(['export', 'const', 'const']);
    expect(typed(ts, 'number')).toEqual(['42']);
    expect(typed(ts, 'comment')).toEqual(['// max']);
    expect(typed(ts, 'string')).toEqual(['`a ${b}`']);

    const py = tokenize('def f(x):\n    """Doc "quoted"."""\n    return x  # done', 'python');
    expect(typed(py, 'keyword')).toEqual(['def', 'return']);
    expect(typed(py, 'string')).toEqual(['"""Doc "quoted"."""']);
    expect(typed(py, 'comment')).toEqual(['# done']);

    const go = tokenize('func Clamp(v int) int { s := `raw \\` ; return 0x1f }', 'go');
    expect(typed(go, 'keyword')).toEqual(['func', 'int', 'int', 'return']);
    expect(typed(go, 'string')).toEqual(['`raw \\`']); // raw strings have no escapes
    expect(typed(go, 'number')).toEqual(['0x1f']);

    const rust = tokenize("fn get<'a>(s: &'a str) -> char { 'x' }", 'rust');
    expect(typed(rust, 'string')).toEqual(["'x'"]); // lifetimes are not strings
    expect(typed(rust, 'keyword')).toEqual(['fn', 'str', 'char']);

    const java = tokenize('/* block\n comment */ public class A { int n = 10; }', 'java');
    expect(typed(java, 'comment')).toEqual(['/* block\n comment */']);
    expect(typed(java, 'keyword')).toEqual(['public', 'class', 'int']);
  });

  it('does not treat digits inside identifiers as numbers, and leaves unknown languages plain', () => {
    expect(typed(tokenize('const md5sum = v2;', 'typescript'), 'number')).toEqual([]);
    expect(tokenize('# Title\n<b>x</b>', null)).toEqual([{ type: 'plain', text: '# Title\n<b>x</b>' }]);
  });

  it('splits a multi-line comment across lines, keeping its type on each line', () => {
    const lines = highlightLines('a /* one\ntwo */ b', 'typescript');
    expect(lines).toEqual([
      [{ type: 'plain', text: 'a ' }, { type: 'comment', text: '/* one' }],
      [{ type: 'comment', text: 'two */' }, { type: 'plain', text: ' b' }],
    ]);
  });

  it('picks the language from the index language or the file extension', () => {
    expect(languageFor('tsx')).toBe('typescript');
    expect(languageFor(null, 'src/app/main.py')).toBe('python');
    expect(languageFor('markdown', 'README.md')).toBeNull();
  });
});
