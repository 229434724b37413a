import fc from 'fast-check';
import { ENGLISH_STOP_WORDS } from './stop-words';
import { isIdentifierLike, splitIdentifier, termFrequencies, tokenize, TokenKind, visitTokens } from './tokenizer';

/**
 * The original all-regex tokenizer, kept as the reference the fast ASCII path must agree
 * with on every input (the fast path exists only for speed).
 */
function referenceTokenize(text: string, options: { removeStopWords?: boolean; splitIdentifiers?: boolean; maxTokenLength?: number } = {}): string[] {
  const { removeStopWords = false, splitIdentifiers = true, maxTokenLength = 64 } = options;
  const out: string[] = [];
  for (const match of text.matchAll(/[\p{L}_$][\p{L}\p{N}_$]*|\p{N}+(?:\.\p{N}+)*/gu)) {
    const raw = match[0];
    if (raw.length > maxTokenLength) continue;
    const whole = raw.toLowerCase().replace(/^[_$]+|[_$]+$/g, '');
    if (!whole) continue;
    const identifier = isIdentifierLike(raw);
    if (!identifier && removeStopWords && ENGLISH_STOP_WORDS.has(whole)) continue;
    out.push(whole);
    if (identifier && splitIdentifiers) {
      const parts = splitIdentifier(raw);
      if (parts.length > 1) for (const p of parts) out.push(p);
    }
  }
  return out;
}

describe('tokenize: identifiers', () => {
  it.each([
    ['camelCase', 'getUserById', ['getuserbyid', 'get', 'user', 'by', 'id']],
    ['PascalCase', 'HttpServer', ['httpserver', 'http', 'server']],
    ['snake_case', 'get_user_by_id', ['get_user_by_id', 'get', 'user', 'by', 'id']],
    ['SCREAMING_SNAKE_CASE', 'MAX_RETRY_COUNT', ['max_retry_count', 'max', 'retry', 'count']],
    ['acronym inside', 'parseHTTPResponse', ['parsehttpresponse', 'parse', 'http', 'response']],
    ['leading acronym', 'XMLHttpRequest', ['xmlhttprequest', 'xml', 'http', 'request']],
    ['trailing acronym', 'getURL', ['geturl', 'get', 'url']],
    ['two-letter acronym', 'IOError', ['ioerror', 'io', 'error']],
    ['digits inside', 'utf8Decode', ['utf8decode', 'utf', '8', 'decode']],
    ['digits at the end', 'sha256', ['sha256', 'sha', '256']],
    ['version suffix', 'parser_v2', ['parser_v2', 'parser', 'v', '2']],
    ['dollar sign', '$scopeApply', ['scopeapply', 'scope', 'apply']],
  ])('splits %s and keeps the whole identifier first', (_name, input, expected) => {
    expect(tokenize(input)).toEqual(expected);
  });

  it('makes camelCase and snake_case spellings of one name share every part', () => {
    const camel = tokenize('getUserById').slice(1);
    const snake = tokenize('get_user_by_id').slice(1);
    expect(camel).toEqual(snake);
  });

  it('lets a natural-language query hit every part of a compound identifier', () => {
    const doc = new Set(tokenize('export function parseHttpResponse(raw: Buffer) {}'));
    for (const term of tokenize('parse http response', { removeStopWords: true })) expect(doc.has(term)).toBe(true);
  });

  it('lets an identifier query hit the whole identifier', () => {
    expect(tokenize('const u = await repo.findUserByEmail(email)')).toContain(tokenize('findUserByEmail')[0]);
  });

  it('strips leading and trailing underscores and does not repeat a single part', () => {
    expect(tokenize('__init__')).toEqual(['init']);
    expect(tokenize('_private')).toEqual(['private']);
  });

  it('emits only whole identifiers when splitIdentifiers is false', () => {
    expect(tokenize('getUserById user_name', { splitIdentifiers: false })).toEqual(['getuserbyid', 'user_name']);
  });

  it('treats punctuation, operators and kebab-case dashes as separators', () => {
    expect(tokenize('foo.bar(baz) => qux[0] + my-component')).toEqual(['foo', 'bar', 'baz', 'qux', '0', 'my', 'component']);
  });

  it('keeps decimal numbers and version-like numbers as one token', () => {
    expect(tokenize('pi = 3.14; version 1.2.3')).toEqual(['pi', '3.14', 'version', '1.2.3']);
  });

  it('lower-cases plain words without splitting them', () => {
    expect(tokenize('Cache STORE Flush')).toEqual(['cache', 'store', 'flush']);
  });
});

describe('tokenize: stop words', () => {
  it('removes stop words from natural-language queries when asked', () => {
    expect(tokenize('where is the user loaded from the database', { removeStopWords: true })).toEqual(['user', 'loaded', 'database']);
  });

  it('removes capitalised and upper-case stop words too', () => {
    expect(tokenize('The cache AND THE store', { removeStopWords: true })).toEqual(['cache', 'store']);
  });

  it('keeps stop words by default (documents are indexed as written)', () => {
    expect(tokenize('the user')).toEqual(['the', 'user']);
  });

  it('never removes identifiers or their parts, even when made of stop words', () => {
    const tokens = tokenize('set the_value forEach isNotOnlyIf', { removeStopWords: true });
    expect(tokens).toEqual([
      'set',
      'the_value', 'the', 'value',
      'foreach', 'for', 'each',
      'isnotonlyif', 'is', 'not', 'only', 'if',
    ]);
  });
});

describe('tokenize: unicode', () => {
  it('keeps accented words whole', () => {
    expect(tokenize('größe café naïve')).toEqual(['größe', 'café', 'naïve']);
  });

  it('splits non-ASCII camelCase identifiers', () => {
    expect(tokenize('naïveBayes')).toEqual(['naïvebayes', 'naïve', 'bayes']);
    expect(tokenize('ПолучитьДанные')).toEqual(['получитьданные', 'получить', 'данные']);
  });

  it('keeps runs of CJK characters as a token and ignores emoji', () => {
    expect(tokenize('数据库 🚀 connect')).toEqual(['数据库', 'connect']);
  });

  it('handles astral-plane letters and lone surrogates without throwing', () => {
    expect(tokenize('𝑥Value')).toEqual(['𝑥value', '𝑥', 'value']);
    expect(() => tokenize('a\ud800b\udc00c')).not.toThrow();
  });

  it('treats an ASCII word glued to a non-ASCII letter as one word', () => {
    expect(tokenize('userÄnderung')).toEqual(['userÄnderung'.toLowerCase(), 'user', 'änderung']);
  });
});

describe('tokenize: long tokens', () => {
  it('drops words longer than 64 characters (hashes, base64 blobs) but keeps 64', () => {
    const keep = 'a'.repeat(64);
    expect(tokenize(`x ${'b'.repeat(65)} ${keep} y`)).toEqual(['x', keep, 'y']);
  });

  it('drops a long base64 blob without dropping its neighbours', () => {
    const blob = 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0NTY3ODk';
    expect(tokenize(`const logo = "${blob}";`)).toEqual(['const', 'logo']);
  });

  it('drops long non-ASCII identifiers and honours a custom maxTokenLength', () => {
    expect(tokenize(`ä${'x'.repeat(70)} ok`)).toEqual(['ok']);
    expect(tokenize('short longerword', { maxTokenLength: 5 })).toEqual(['short']);
  });
});

describe('visitTokens', () => {
  it('labels plain words, whole identifiers and their parts', () => {
    const seen: Array<[string, TokenKind]> = [];
    visitTokens('load getUserById', (token, kind) => seen.push([token, kind]));
    expect(seen).toEqual([
      ['load', 'word'],
      ['getuserbyid', 'identifier'],
      ['get', 'part'],
      ['user', 'part'],
      ['by', 'part'],
      ['id', 'part'],
    ]);
  });
});

describe('termFrequencies', () => {
  it('counts repeated terms', () => {
    expect(termFrequencies(tokenize('id = user.id || id'))).toEqual(new Map([['id', 3], ['user', 1]]));
  });
});

describe('tokenize: properties', () => {
  const codeLike = fc.string({
    unit: fc.constantFrom(...'aAbBzZ_$09 .-(){}\n\tHTTPxyz'.split(''), 'ä', 'É', '数', '🚀', '\u0301', '٣'),
    maxLength: 200,
  });
  const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 100 }), codeLike);
  const options = fc.record({
    removeStopWords: fc.boolean(),
    splitIdentifiers: fc.boolean(),
    maxTokenLength: fc.integer({ min: 1, max: 80 }),
  });

  it('never throws and every token is lower-case and non-empty', () => {
    fc.assert(
      fc.property(anyText, options, (text, opts) => {
        for (const token of tokenize(text, opts)) {
          expect(token.length).toBeGreaterThan(0);
          expect(token).toBe(token.toLowerCase());
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with the reference regex implementation on any input', () => {
    fc.assert(
      fc.property(anyText, options, (text, opts) => {
        expect(tokenize(text, opts)).toEqual(referenceTokenize(text, opts));
      }),
      { numRuns: 3000 },
    );
  });

  it('never drops an identifier that a stop-word list contains as a part', () => {
    const stop = [...ENGLISH_STOP_WORDS];
    fc.assert(
      fc.property(fc.constantFrom(...stop), fc.constantFrom(...stop), (a, b) => {
        const snake = `${a}_${b}`;
        expect(tokenize(snake, { removeStopWords: true })[0]).toBe(snake);
      }),
    );
  });
});
