import fc from 'fast-check';
import { shareTokenBudget, truncateToLines } from './token-budget';

const MARKER = /… \[truncated: (\d+) more lines?\]$/;

describe('truncateToLines', () => {
  it('returns text that fits unchanged', () => {
    expect(truncateToLines('a\nb\n', 4)).toEqual({ text: 'a\nb\n', truncated: false, omittedLines: 0 });
  });

  it('cuts after the last whole line that fits with the marker and says how many lines were left out', () => {
    const content = Array.from({ length: 40 }, (_, i) => `line ${i} of the chunk`).join('\n');
    const out = truncateToLines(content, 300);
    expect(out.truncated).toBe(true);
    expect(out.text.length).toBeLessThanOrEqual(300);
    const kept = out.text.replace(MARKER, '');
    expect(kept.endsWith('\n')).toBe(true);
    expect(content.startsWith(kept)).toBe(true);
    expect(Number(MARKER.exec(out.text)![1])).toBe(40 - kept.split('\n').length + 1);
  });

  it('never splits a single over-long line: it keeps nothing of it', () => {
    const out = truncateToLines(`${'x'.repeat(5000)}\nshort\n`, 200);
    expect(out.text).toBe('… [truncated: 2 more lines]');
  });
});

describe('shareTokenBudget (property)', () => {
  const text = fc.array(fc.string({ maxLength: 120 }), { maxLength: 60 }).map((ls) => ls.map((l) => l.replace(/\n/g, ' ')).join('\n'));

  it('respects the budget, keeps whole lines, reports omitted lines correctly, and leaves fitting texts alone', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(text, text.map((t) => `${t}\n`)), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 3000 }), (contents, maxTokens) => {
        const out = shareTokenBudget(contents, { maxTokens, charsPerToken: 1 });
        expect(out.reduce((s, o) => s + o.text.length, 0)).toBeLessThanOrEqual(maxTokens);
        out.forEach((o, i) => {
          const original = contents[i];
          if (!o.truncated) {
            expect(o.text).toBe(original);
            return;
          }
          if (o.text === '') return; // not even the marker fitted
          const m = MARKER.exec(o.text)!;
          expect(m).not.toBeNull();
          const kept = o.text.slice(0, m.index);
          expect(original.startsWith(kept)).toBe(true);
          expect(kept === '' || kept.endsWith('\n')).toBe(true);
          const total = original.endsWith('\n') ? original.split('\n').length - 1 : original.split('\n').length;
          const keptLines = kept === '' ? 0 : kept.split('\n').length - 1;
          expect(Number(m[1])).toBe(total - keptLines);
          expect(o.omittedLines).toBe(total - keptLines);
        });
      }),
      { numRuns: 300 },
    );
  });
});
