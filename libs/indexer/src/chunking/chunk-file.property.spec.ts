import fc from 'fast-check';
import type { Language } from '../language/language';
import { ParsePool } from '../parsing/parse-pool';

// Worker threads, for the same reason as in chunk-file.spec.ts (node-tree-sitter under Jest).
let pool: ParsePool;
beforeAll(() => {
  pool = new ParsePool({ size: 1, timeoutMs: 60_000 });
});
afterAll(() => pool.close());

const BASE: Record<'typescript' | 'python' | 'go', string> = {
  typescript: `import { a } from './a';\n\nexport class Store {\n  private items: string[] = [];\n  add(item: string): void {\n    if (item.length > 0) {\n      this.items.push(a(item));\n    } else {\n      throw new Error('empty');\n    }\n  }\n}\n\nexport function total(xs: number[]): number {\n  let sum = 0;\n  for (const x of xs) {\n    sum += x;\n  }\n  return sum;\n}\n`,
  python: `import os\n\nclass Store:\n    """Items."""\n\n    def add(self, item):\n        if item:\n            self.items.append(item)\n        else:\n            raise ValueError("empty")\n\n\ndef total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n`,
  go: `package main\n\nimport "fmt"\n\ntype Store struct {\n\titems []string\n}\n\nfunc (s *Store) Add(item string) {\n\tif item != "" {\n\t\ts.items = append(s.items, item)\n\t}\n}\n\nfunc main() {\n\tfmt.Println("hi")\n}\n`,
};

const FRAGMENTS = ['{', '}', '(', ')', ';', '\n', '    ', 'function f() { return 1; }\n', 'class A { m() {} }\n', 'def g():\n    pass\n',
  'if (x) {\n', '"', "'", '`', '/*', '*/', '#', 'const veryLongIdentifierName = anotherVeryLongIdentifierName + yetAnotherOne;\n', 'é€😀', '\t'];

type Edit = { kind: 'insert'; at: number; text: string } | { kind: 'delete'; at: number; length: number };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 30 })) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
);

function apply(source: string, edits: Edit[]): string {
  let text = source;
  for (const edit of edits) {
    const at = text.length === 0 ? 0 : edit.at % (text.length + 1);
    text = edit.kind === 'insert' ? text.slice(0, at) + edit.text + text.slice(at) : text.slice(0, at) + text.slice(at + edit.length);
  }
  return text;
}

const nonWhitespace = (s: string) => s.replace(/\s/g, '').length;

describe('chunkFile under random edits (property)', () => {
  it('never crashes, stays within budget except single lines, and loses no text', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<keyof typeof BASE>('typescript', 'python', 'go'),
        fc.array(editArb, { maxLength: 25 }),
        fc.integer({ min: 40, max: 400 }),
        async (lang, edits, budget) => {
          const text = apply(BASE[lang], edits);
          const result = await pool.chunk({ workspaceId: 'w', repoId: 'r', path: `f.${lang}`, lang: lang as Language, text }, { maxChunkChars: budget });
          expect(result.error ?? '').not.toMatch(/failed/);
          for (const chunk of result.chunks) {
            if (chunk.startLine !== chunk.endLine) expect(nonWhitespace(chunk.content)).toBeLessThanOrEqual(budget);
            expect(text.includes(chunk.content)).toBe(true);
          }
          const covered = result.chunks.map((c) => c.content).join('');
          expect(nonWhitespace(covered)).toBeGreaterThanOrEqual(nonWhitespace(text));
        },
      ),
      { numRuns: Number(process.env.SEXTANT_PROPERTY_RUNS ?? 300) },
    );
  }, 60_000);
});
