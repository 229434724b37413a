import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Bm25RrfBaseline } from './bm25-rrf-baseline';
import { baselineMatch } from './fts5-file-baseline';

const CORPUS: Record<string, string> = {
  'src/http/parser.ts': 'export function parseHttpResponse(raw: string) { return raw.split("\\r\\n"); }\n',
  'src/mail/smtp.ts': 'export function sendMail(to: string) { return deliver(to); } // retry while the mailbox is busy\n',
  'src/util/cache.ts': 'export const cacheSize = 10; // the cache of the parse results\n',
};
const TASKS = [
  { title: 'Retry mail delivery', body: 'The mailbox answered 450.', files: ['src/mail/smtp.ts'] },
  { title: 'Speed up the response parser', body: 'parseHttpResponse copied every line.', files: ['src/http/parser.ts'] },
];

describe('the BM25 + RRF baseline, with the shared and with the unicode61 tokenizer', () => {
  let dir: string;
  let shared: Bm25RrfBaseline;
  let raw: Bm25RrfBaseline;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-baseline-'));
    for (const [rel, text] of Object.entries(CORPUS)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
    shared = await Bm25RrfBaseline.build(dir, TASKS);
    raw = await Bm25RrfBaseline.build(dir, TASKS, 'unicode61');
  });
  afterAll(() => {
    shared.close();
    raw.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('matches the OR of the distinct terms, quoted, and nothing for a query without words', () => {
    expect(baselineMatch('Fix parseHttpResponse, fix "it"', 'unicode61')).toBe('"fix" OR "parsehttpresponse" OR "it"');
    expect(baselineMatch('Fix parseHttpResponse', 'shared')).toBe('"fix" OR "parsehttpresponse" OR "parse" OR "http" OR "response"');
    expect(baselineMatch('?! --', 'unicode61')).toBeNull();
    expect(shared.search('?! --', 10).fused).toEqual([]);
    expect(raw.search('?! --', 10).fused).toEqual([]);
  });

  it('the shared tokenizer splits identifiers, so words of a camelCase name find its file; unicode61 keeps it whole', () => {
    expect(shared.search('parse http response', 10).files[0]).toBe('src/http/parser.ts');
    // unicode61 sees only `parsehttpresponse`; the one file holding "parse" as a word is the cache.
    expect(raw.search('parse http response', 10).files).toEqual(['src/util/cache.ts']);
    // Stop words count too: "is" finds the mail file's comment; the shared tokenizer drops it.
    expect(raw.search('parseHttpResponse is slow', 10).files).toEqual(['src/http/parser.ts', 'src/mail/smtp.ts']);
    expect(shared.search('parseHttpResponse is slow', 10).files).not.toContain('src/mail/smtp.ts');
  });

  it('searches the path only with the shared tokenizer', () => {
    expect(shared.search('smtp', 10).files).toEqual(['src/mail/smtp.ts']);
    expect(raw.search('smtp', 10).files).toEqual([]);
  });

  it('both fuse the file leg with the files of matched past tasks', () => {
    // No file says "delivery"; the first task does, so its file comes in through the task leg.
    expect(raw.search('delivery', 10)).toEqual({ fused: ['src/mail/smtp.ts'], files: [], tasks: ['src/mail/smtp.ts'] });
    expect(shared.search('delivery', 10).fused).toEqual(['src/mail/smtp.ts']);
  });
});
