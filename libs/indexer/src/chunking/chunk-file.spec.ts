import type { Language } from '../language/language';
import { ParsePool } from '../parsing/parse-pool';
import type { ChunkFileInput, ChunkFileResult, ChunkOptions, CodeChunk } from './code-chunk';

// Parsing runs on worker threads: node-tree-sitter's wrapper breaks when Jest evaluates it again
// for another test file in the same process, and workers get a fresh copy each.
let pool: ParsePool;
beforeAll(() => {
  pool = new ParsePool({ size: 1, timeoutMs: 60_000 });
});
afterAll(() => pool.close());
const chunkFile = (input: ChunkFileInput, options?: ChunkOptions): Promise<ChunkFileResult> => pool.chunk(input, options);

interface Expected {
  type: CodeChunk['chunkType'];
  symbol: string;
  /** Text on the first line of the chunk, and the exact text of its last line (first such line after `from`). */
  from: string;
  to: string;
  parent: string;
}

interface Case {
  lang: Language;
  path: string;
  source: string;
  expected: Expected[];
  budget?: number;
}

const CASES: Case[] = [
  {
    lang: 'typescript',
    path: 'auth/session.ts',
    source: `import { Clock } from './clock';
import * as crypto from 'node:crypto';

/** Keeps sessions fresh. */
export class SessionStore {
  private readonly ttl = 3600;

  /** Issue a new token for a user. */
  refresh(userId: string): string {
    const token = crypto.randomUUID();
    return \`\${userId}:\${token}\`;
  }

  expiresAt(clock: Clock): number {
    return clock.now() + this.ttl;
  }
}

export function createStore(): SessionStore {
  return new SessionStore();
}

export const isExpired = (at: number, now: number): boolean => now > at;
`,
    expected: [
      { type: 'class', symbol: 'SessionStore', from: '/** Keeps sessions fresh. */', to: '  private readonly ttl = 3600;', parent: 'file' },
      { type: 'method', symbol: 'SessionStore.refresh', from: '/** Issue a new token', to: '  }', parent: 'SessionStore' },
      { type: 'method', symbol: 'SessionStore.expiresAt', from: 'expiresAt(clock', to: '}', parent: 'SessionStore' },
      { type: 'function', symbol: 'createStore', from: 'export function createStore', to: '}', parent: 'file' },
      { type: 'function', symbol: 'isExpired', from: 'export const isExpired', to: 'export const isExpired = (at: number, now: number): boolean => now > at;', parent: 'file' },
    ],
  },
  {
    lang: 'tsx',
    path: 'ui/button.tsx',
    source: `import React from 'react';

export function Button({ label }: { label: string }) {
  return <button className="btn">{label.toUpperCase()}</button>;
}

export class Panel extends React.Component<{ title: string }> {
  render() {
    return <section><h1>{this.props.title}</h1></section>;
  }
}
`,
    expected: [
      { type: 'function', symbol: 'Button', from: 'export function Button', to: '}', parent: 'file' },
      { type: 'class', symbol: 'Panel', from: 'export class Panel', to: '}', parent: 'file' },
    ],
  },
  {
    lang: 'javascript',
    path: 'lib/queue.js',
    budget: 60,
    source: `const { EventEmitter } = require('events');

class Queue extends EventEmitter {
  constructor() {
    super();
    this.items = [];
  }

  push(item) {
    this.items.push(item);
    this.emit('push', item);
  }
}

function drain(q) {
  q.items.length = 0;
}

module.exports = { Queue, drain };
`,
    expected: [
      { type: 'class', symbol: 'Queue', from: 'class Queue', to: 'class Queue extends EventEmitter {', parent: 'file' },
      { type: 'method', symbol: 'Queue.constructor', from: 'constructor() {', to: '  }', parent: 'Queue' },
      { type: 'method', symbol: 'Queue.push', from: 'push(item) {', to: '}', parent: 'Queue' },
      { type: 'function', symbol: 'drain', from: 'function drain', to: '}', parent: 'file' },
    ],
  },
  {
    // CommonJS: definitions that are assigned rather than declared.
    lang: 'javascript',
    path: 'lib/application.js',
    budget: 100,
    source: `const Emitter = require('events');

module.exports = class Application extends Emitter {
  listen(...args) {
    const server = http.createServer(this.callback());
    return server.listen(...args);
  }

  use(fn) {
    this.middleware.push(fn);
    return this;
  }
};

exports.compose = function (middleware) {
  return (ctx) => middleware.map((fn) => fn(ctx));
};

const Widget = class {
  render() {
    return '<div>widget</div>';
  }
};
`,
    expected: [
      { type: 'class', symbol: 'Application', from: 'module.exports = class Application', to: 'module.exports = class Application extends Emitter {', parent: 'file' },
      { type: 'method', symbol: 'Application.listen', from: 'listen(...args) {', to: '  }', parent: 'Application' },
      { type: 'method', symbol: 'Application.use', from: 'use(fn) {', to: '};', parent: 'Application' },
      { type: 'function', symbol: 'compose', from: 'exports.compose = function', to: '};', parent: 'file' },
      { type: 'class', symbol: 'Widget', from: 'const Widget = class', to: '};', parent: 'file' },
    ],
  },
  {
    lang: 'python',
    path: 'billing/invoice.py',
    source: `"""Invoices and their totals."""
from decimal import Decimal
import logging

log = logging.getLogger(__name__)


class Invoice:
    """A customer invoice."""

    def __init__(self, lines):
        self.lines = lines

    @property
    def total(self) -> Decimal:
        """Sum of all lines."""
        return sum((Decimal(l.amount) for l in self.lines), Decimal(0))


def send(invoice: Invoice) -> None:
    log.info("sending %s", invoice.total)
`,
    expected: [
      { type: 'class', symbol: 'Invoice', from: 'class Invoice:', to: '    """A customer invoice."""', parent: 'file' },
      { type: 'method', symbol: 'Invoice.__init__', from: 'def __init__', to: '        self.lines = lines', parent: 'Invoice' },
      { type: 'method', symbol: 'Invoice.total', from: '@property', to: '        return sum((Decimal(l.amount) for l in self.lines), Decimal(0))', parent: 'Invoice' },
      { type: 'function', symbol: 'send', from: 'def send', to: '    log.info("sending %s", invoice.total)', parent: 'file' },
    ],
  },
  {
    lang: 'go',
    path: 'store/cache.go',
    source: `package store

import (
	"sync"
	"time"
)

// Cache holds values for a while.
type Cache struct {
	mu    sync.Mutex
	items map[string]time.Time
}

// Put stores a key.
func (c *Cache) Put(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[key] = time.Now()
}

func NewCache() *Cache {
	return &Cache{items: map[string]time.Time{}}
}
`,
    expected: [
      { type: 'class', symbol: 'Cache', from: '// Cache holds', to: '}', parent: 'file' },
      { type: 'method', symbol: 'Cache.Put', from: '// Put stores', to: '}', parent: 'file' },
      { type: 'function', symbol: 'NewCache', from: 'func NewCache', to: '}', parent: 'file' },
    ],
  },
  {
    lang: 'java',
    path: 'src/main/java/app/UserService.java',
    source: `package app;

import java.util.List;
import java.util.Optional;

/** Looks users up. */
public class UserService {
    private final List<String> users;

    public UserService(List<String> users) {
        this.users = users;
    }

    /** Find a user by name. */
    public Optional<String> find(String name) {
        return users.stream().filter(u -> u.equals(name)).findFirst();
    }
}
`,
    expected: [
      { type: 'class', symbol: 'UserService', from: '/** Looks users up. */', to: '    private final List<String> users;', parent: 'file' },
      { type: 'method', symbol: 'UserService.UserService', from: 'public UserService(', to: '    }', parent: 'UserService' },
      { type: 'method', symbol: 'UserService.find', from: '/** Find a user', to: '}', parent: 'UserService' },
    ],
  },
  {
    lang: 'rust',
    path: 'src/counter.rs',
    source: `use std::collections::HashMap;

/// Counts words.
pub struct Counter {
    counts: HashMap<String, usize>,
}

impl Counter {
    pub fn new() -> Self {
        Counter { counts: HashMap::new() }
    }

    /// Add one word.
    pub fn add(&mut self, word: &str) {
        *self.counts.entry(word.to_string()).or_insert(0) += 1;
    }
}

fn main() {
    let mut c = Counter::new();
    c.add("hello");
    println!("{:?}", c.counts);
}
`,
    expected: [
      { type: 'class', symbol: 'Counter', from: '/// Counts words.', to: '}', parent: 'file' },
      { type: 'class', symbol: 'Counter', from: 'impl Counter {', to: 'impl Counter {', parent: 'file' },
      { type: 'method', symbol: 'Counter.new', from: 'pub fn new()', to: '    }', parent: 'Counter' },
      { type: 'method', symbol: 'Counter.add', from: '/// Add one word.', to: '}', parent: 'Counter' },
      { type: 'function', symbol: 'main', from: 'fn main()', to: '}', parent: 'file' },
    ],
  },
];

/** 0-indexed line of the first occurrence of `marker`. */
function lineOf(source: string, marker: string, after = 0): number {
  const at = source.indexOf(marker, after);
  if (at < 0) throw new Error(`marker not found: ${marker}`);
  return source.slice(0, at).split('\n').length - 1;
}

/** 0-indexed number of the first line at or after `fromLine` whose text is exactly `text`. */
function lastLineOf(source: string, text: string, fromLine: number): number {
  const lines = source.split('\n');
  for (let i = fromLine; i < lines.length; i++) if (lines[i].trimEnd() === text) return i;
  throw new Error(`line not found: ${text}`);
}

const DEFAULT_BUDGET = 130;

describe.each(CASES)('chunkFile($lang)', ({ lang, path, source, expected, budget }) => {
  const BUDGET = budget ?? DEFAULT_BUDGET;
  const input = { workspaceId: 'ws', repoId: 'repo', path, lang, text: source };
  // Computed in beforeAll, not at collection time, so native parsing happens inside the test lifecycle.
  let result: ChunkFileResult;
  let chunks: CodeChunk[];
  let file: CodeChunk;
  beforeAll(async () => {
    result = await chunkFile(input, { maxChunkChars: BUDGET });
    chunks = result.chunks;
    file = chunks.find((c) => c.chunkType === 'file')!;
  });

  it('parses and yields one file chunk at the root', async () => {
    expect(result.parse).toBe('ok');
    expect(chunks.filter((c) => c.chunkType === 'file')).toHaveLength(1);
    expect(file.parentId).toBeNull();
  });

  it('yields the expected classes, methods and functions with their lines and parents', async () => {
    let searchFrom = 0;
    for (const exp of expected) {
      const symbol = `${path}:${exp.symbol}`;
      const startLine = lineOf(source, exp.from, searchFrom);
      const chunk = chunks.find((c) => c.symbol === symbol && c.chunkType === exp.type && c.startLine === startLine);
      expect({ symbol, startLine, found: !!chunk }).toEqual({ symbol, startLine, found: true });
      searchFrom = source.indexOf(exp.from, searchFrom);
      expect({ symbol, endLine: chunk!.endLine }).toEqual({ symbol, endLine: lastLineOf(source, exp.to, startLine) });
      const parent = chunks.find((c) => c.id === chunk!.parentId)!;
      expect(exp.parent === 'file' ? parent.chunkType : parent.name).toBe(exp.parent);
      expect(chunk!.content).toBe(source.slice(chunk!.startByte, chunk!.endByte));
      expect(chunk!.embedText).toContain(symbol);
      expect(chunk!.signature).toBeTruthy();
    }
  });

  it('covers every non-blank line of the file, in order, without overlap', async () => {
    const ordered = [...chunks].filter((c) => c.content.length > 0).sort((a, b) => a.startByte - b.startByte);
    for (let i = 1; i < ordered.length; i++) expect(ordered[i].startByte).toBeGreaterThanOrEqual(ordered[i - 1].endByte);
    const covered = new Set<number>();
    for (const c of ordered) for (let l = c.startLine; l <= c.endLine; l++) covered.add(l);
    source.split('\n').forEach((line, i) => {
      if (line.trim() !== '') expect({ line: i, text: line, covered: covered.has(i) }).toEqual({ line: i, text: line, covered: true });
    });
    const stripped = (s: string) => s.replace(/\s+/g, '');
    expect(stripped(ordered.map((c) => c.content).join(''))).toBe(stripped(source));
  });

  it('gives stable ids that change when the content changes', async () => {
    const again = (await chunkFile(input, { maxChunkChars: BUDGET })).chunks.map((c) => c.id);
    expect(again).toEqual(chunks.map((c) => c.id));
    expect(new Set(again).size).toBe(again.length);
    const last = expected[expected.length - 1];
    const edited = source.replace(last.from, `${last.from} `).replace(/\n$/, '\n// trailing\n');
    const before = chunks.find((c) => c.symbol === `${path}:${last.symbol}` && c.startLine === lineOf(source, last.from))!;
    const after = (await chunkFile({ ...input, text: edited }, { maxChunkChars: BUDGET })).chunks;
    expect(after.map((c) => c.id)).not.toContain(before.id);
    // Untouched definitions keep their ids.
    const firstId = chunks.find((c) => c.symbol === `${path}:${expected[0].symbol}`)!.id;
    expect(after.map((c) => c.id)).toContain(firstId);
  });

  it('reports definitions and references as symbols', async () => {
    const names = result.symbols.definitions.map((d) => d.symbol);
    for (const exp of expected) expect(names).toContain(`${path}:${exp.symbol}`);
    expect(result.symbols.imports.length).toBeGreaterThan(0);
    expect(result.symbols.references.length).toBeGreaterThan(0);
  });

  it('skips only the call sites with `references: false`: same chunks, definitions and imports', async () => {
    const lean = await chunkFile(input, { maxChunkChars: BUDGET, references: false });
    expect(lean.symbols.references).toEqual([]);
    expect(lean.chunks).toEqual(result.chunks);
    expect(lean.symbols.definitions).toEqual(result.symbols.definitions);
    expect(lean.symbols.imports).toEqual(result.symbols.imports);
  });
});

describe('chunkFile details', () => {
  it('keeps small classes whole and lists their methods as symbols', async () => {
    const source = CASES[0].source;
    const result = await chunkFile({ workspaceId: 'w', repoId: 'r', path: 'auth/session.ts', lang: 'typescript', text: source });
    expect(result.chunks.filter((c) => c.chunkType === 'method')).toHaveLength(0);
    const store = result.chunks.find((c) => c.name === 'SessionStore')!;
    expect(store.docstring).toBe('Keeps sessions fresh.');
    expect(store.imports.sort()).toEqual(['./clock', 'node:crypto']);
    const refresh = result.symbols.definitions.find((d) => d.name === 'refresh')!;
    expect(refresh).toMatchObject({ kind: 'method', parent: 'auth/session.ts:SessionStore', startLine: 8, endLine: 11 });
    const call = result.symbols.references.find((r) => r.name === 'randomUUID')!;
    expect(call).toMatchObject({ kind: 'call', line: 9, from: 'auth/session.ts:SessionStore.refresh' });
  });

  it('carries signatures, Python docstrings and the class header of split classes', async () => {
    const py = CASES.find((c) => c.lang === 'python')!;
    const result = await chunkFile({ workspaceId: 'w', repoId: 'r', path: py.path, lang: 'python', text: py.source }, { maxChunkChars: DEFAULT_BUDGET });
    const total = result.chunks.find((c) => c.name === 'total')!;
    expect(total.signature).toBe('def total(self) -> Decimal');
    expect(total.docstring).toBe('Sum of all lines.');
    expect(total.embedText).toBe(
      `path: billing/invoice.py\nsymbol: billing/invoice.py:Invoice.total\nsignature: def total(self) -> Decimal\nin: class Invoice\n\n${total.content}`,
    );
    const file = result.chunks.find((c) => c.chunkType === 'file')!;
    expect(file.content).toContain('"""Invoices and their totals."""');
    expect(file.embedText).toContain('defines: class Invoice, function send');
    // The file chunk's symbol is the path itself, so its header has no symbol line.
    expect(file.embedText.startsWith('path: billing/invoice.py\nimports: ')).toBe(true);
  });

  it('keeps comments out of signatures and reads multi-line parameter lists as one line', async () => {
    const text = [
      'class State(enum.Enum):',
      '    # UNOPENED: the client was never used.',
      '    UNOPENED = 1',
      '',
      '',
      'def connect(',
      '    host: str,',
      '    port: int = 80,',
      ') -> None:',
      '    # Nothing to do yet.',
      '    pass',
      '',
    ].join('\n');
    const result = await chunkFile({ workspaceId: 'w', repoId: 'r', path: 'client.py', lang: 'python', text });
    const signatures = Object.fromEntries(result.chunks.filter((c) => c.name).map((c) => [c.name, c.signature]));
    expect(signatures).toEqual({ State: 'class State(enum.Enum)', connect: 'def connect(host: str, port: int = 80) -> None' });
  });

  it('drops comments inside annotations and parameter lists from signatures, but not from strings', async () => {
    const java = 'class Reader {\n  @Deprecated // callers should see the new API\n  @SuppressWarnings("x")\n  public void setLenient(boolean lenient) {\n    this.lenient = lenient;\n  }\n}\n';
    const ts = "export function fetchFrom(\n  base = 'http://localhost', // the dev server\n  /* retries */ tries = 3,\n): void {\n  get(base, tries);\n}\n";
    const [j, t] = await Promise.all([
      chunkFile({ workspaceId: 'w', repoId: 'r', path: 'Reader.java', lang: 'java', text: java }, { maxChunkChars: 60 }),
      chunkFile({ workspaceId: 'w', repoId: 'r', path: 'fetch.ts', lang: 'typescript', text: ts }),
    ]);
    const signatureOf = (r: ChunkFileResult, name: string) => r.chunks.find((c) => c.name === name)?.signature;
    expect(signatureOf(j, 'setLenient')).toBe('@Deprecated @SuppressWarnings("x") public void setLenient(boolean lenient)');
    expect(signatureOf(t, 'fetchFrom')).toBe("function fetchFrom(base = 'http://localhost', tries = 3): void");
  });

  it('reads JSX attributes named with reserved words (Preact class=, MUI in=) without syntax errors', async () => {
    const text = "import { h } from 'preact';\n\nexport function App({ open }) {\n  return <Collapse in={open}><div class=\"hero\">hi</div></Collapse>;\n}\n\nexport function Footer() {\n  return <footer class=\"muted\" />;\n}\n";
    const result = await chunkFile({ workspaceId: 'w', repoId: 'r', path: 'src/app.jsx', lang: 'javascript', text });
    expect(result.parse).toBe('ok');
    expect(result.hasSyntaxErrors).toBeUndefined();
    expect(result.chunks.filter((c) => c.chunkType === 'function').map((c) => [c.name, c.lang, c.startLine, c.endLine])).toEqual([
      ['App', 'javascript', 2, 4],
      ['Footer', 'javascript', 6, 8],
    ]);
    expect(result.symbols.imports.map((i) => i.source)).toEqual(['preact']);
  });

  it('treats class fields holding functions as methods (TypeScript and JavaScript)', async () => {
    const ts = 'export class Store {\n  private items: string[] = [];\n\n  handleClick = (event: MouseEvent): void => {\n    this.items.push(String(event.button));\n  };\n\n  static create = async function (): Promise<Store> {\n    return new Store();\n  };\n}\n';
    const js = 'class Panel {\n  count = 0;\n\n  onToggle = (open) => {\n    this.count += open ? 1 : 0;\n  };\n}\n';
    const [t, j] = await Promise.all([
      chunkFile({ workspaceId: 'w', repoId: 'r', path: 'store.ts', lang: 'typescript', text: ts }, { maxChunkChars: 100 }),
      chunkFile({ workspaceId: 'w', repoId: 'r', path: 'panel.js', lang: 'javascript', text: js }, { maxChunkChars: 45 }),
    ]);
    const methods = (r: ChunkFileResult) => r.chunks.filter((c) => c.chunkType === 'method').map((c) => [c.symbol, c.startLine, c.endLine, c.signature]);
    expect(methods(t)).toEqual([
      ['store.ts:Store.handleClick', 3, 5, 'handleClick = (event: MouseEvent): void =>'],
      ['store.ts:Store.create', 7, 10, 'static create = async function (): Promise<Store>'],
    ]);
    expect(methods(j)).toEqual([['panel.js:Panel.onToggle', 3, 6, 'onToggle = (open) =>']]);
    // A field holding a plain value stays part of the class.
    expect(t.symbols.definitions.map((d) => d.name)).toEqual(['Store', 'handleClick', 'create']);
  });

  it.each([
    ['typescript', 'a.ts', "function main(obj: any, fn: any, arr: any[]) {\n  obj.service.load(1);\n  const x = new Foo<string>(2);\n  const y = new Bar;\n  obj?.method();\n  fn?.(1);\n  tag`text ${x}`;\n  parse<number>(y);\n  (g || h)(3);\n  arr[0](4);\n  this.save();\n}\n", ['call:load@1', 'new:Foo@2', 'new:Bar@3', 'call:method@4', 'call:fn@5', 'call:tag@6', 'call:parse@7', 'call:save@10']],
    ['python', 'a.py', "@register(name=\"x\")\ndef main(d, k):\n    a.b.compute(1)\n    obj = Widget()\n    (lambda: 1)()\n    d[k](2)\n    print(len(d))\n", ['call:register@0', 'call:compute@2', 'call:Widget@3', 'call:print@6', 'call:len@6']],
    ['go', 'a.go', "package main\n\nfunc main() {\n\tfmt.Println(1)\n\tv := Map[int](xs)\n\thandlers[0](2)\n\tn := int64(3)\n\tdefer mu.Unlock()\n}\n", ['call:Println@3', 'call:int64@6', 'call:Unlock@7']],
    ['java', 'A.java', "class A {\n  void run(Obj obj) {\n    obj.process(1);\n    this.<String>convert(2);\n    Foo f = new Foo<>(3);\n    Runnable r = new Runnable() { public void run() {} };\n    helper();\n  }\n}\n", ['call:process@2', 'call:convert@3', 'new:Foo@4', 'new:Runnable@5', 'call:helper@6']],
    ['rust', 'a.rs', "fn main() {\n    let m = Map::new();\n    let v: Vec<i32> = xs.iter().map(double).collect();\n    println!(\"{}\", m.len());\n    let n = \"5\".parse::<i32>();\n    let w = vec![1, 2];\n}\n", ['call:new@1', 'call:collect@2', 'call:map@2', 'call:iter@2', 'macro:println@3', 'call:parse@4', 'macro:vec@5']],
  ] as const)('names the called function of every call site in %s (and none for computed callees)', async (lang, path, text, expected) => {
    const result = await chunkFile({ workspaceId: 'w', repoId: 'r', path, lang, text });
    expect(result.symbols.references.map((r) => `${r.kind}:${r.name}@${r.line}`)).toEqual(expected);
  });

  it('finds Rust inline modules, their functions and trait signatures, and Java compact constructors', async () => {
    const rust = [
      'pub trait Shape {',
      '    fn area(&self) -> f64;',
      '}',
      '',
      'mod parser;',
      '',
      '#[cfg(test)]',
      'mod tests {',
      '    use super::*;',
      '',
      '    #[test]',
      '    fn parses_numbers() {',
      '        assert_eq!(parse("1"), 1);',
      '    }',
      '}',
      '',
    ].join('\n');
    const java = 'public record Circle(double radius) {\n  public Circle {\n    if (radius < 0) throw new IllegalArgumentException("radius");\n  }\n}\n';
    const [r, j] = await Promise.all([
      chunkFile({ workspaceId: 'w', repoId: 'r', path: 'src/lib.rs', lang: 'rust', text: rust }, { maxChunkChars: 40 }),
      chunkFile({ workspaceId: 'w', repoId: 'r', path: 'Circle.java', lang: 'java', text: java }, { maxChunkChars: 40 }),
    ]);
    const defs = (result: ChunkFileResult) => result.symbols.definitions.map((d) => `${d.kind} ${d.symbol.split(':')[1]} ${d.startLine}-${d.endLine}`);
    expect(defs(r)).toEqual(['trait Shape 0-2', 'method Shape.area 1-1', 'module tests 7-14', 'function tests.parses_numbers 11-13']);
    const test = r.chunks.find((c) => c.name === 'parses_numbers')!;
    expect([test.chunkType, r.chunks.find((c) => c.id === test.parentId)!.name]).toEqual(['function', 'tests']);
    expect(defs(j)).toEqual(['class Circle 0-4', 'method Circle.Circle 1-3']);
  });

  it('finds TypeScript namespaces, abstract methods and interface methods', async () => {
    const text = [
      'export namespace Geometry {',
      '  export function area(r: number): number {',
      '    return Math.PI * r * r;',
      '  }',
      '}',
      '',
      'export abstract class Repo<T> {',
      '  abstract find(id: string): Promise<T>;',
      '}',
      '',
      'interface ListProps {',
      '  onSelect(item: string): void;',
      '}',
      '',
    ].join('\n');
    const result = await chunkFile({ workspaceId: 'w', repoId: 'r', path: 'geo.ts', lang: 'typescript', text }, { maxChunkChars: 40 });
    expect(result.symbols.definitions.map((d) => `${d.kind} ${d.symbol.split(':')[1]}`)).toEqual([
      'module Geometry',
      'function Geometry.area',
      'class Repo',
      'method Repo.find',
      'interface ListProps',
      'method ListProps.onSelect',
    ]);
  });

  it('finds every type of a grouped Go type declaration, whole or split', async () => {
    const text = 'package store\n\ntype (\n\tReader interface {\n\t\tRead(p []byte) (int, error)\n\t}\n\tStore struct {\n\t\tmu sync.Mutex\n\t}\n\tID = string\n)\n';
    const [whole, split] = await Promise.all([
      chunkFile({ workspaceId: 'w', repoId: 'r', path: 'store.go', lang: 'go', text }),
      chunkFile({ workspaceId: 'w', repoId: 'r', path: 'store.go', lang: 'go', text }, { maxChunkChars: 30 }),
    ]);
    const defs = (r: ChunkFileResult) => r.symbols.definitions.map((d) => `${d.kind} ${d.name} ${d.startLine}-${d.endLine}`);
    expect(defs(whole)).toEqual(['interface Reader 3-5', 'struct Store 6-8', 'type ID 9-9']);
    expect(defs(split)).toEqual(defs(whole));
    const firstParts = split.chunks.filter((c) => c.chunkType === 'class' && split.chunks.find((p) => p.id === c.parentId)?.name !== c.name);
    expect(firstParts.map((c) => [c.name, c.signature])).toEqual([
      ['Reader', 'type Reader'],
      ['Store', 'type Store'],
      ['ID', 'type ID = string'],
    ]);
  });

  it('gives up a parse that runs past parseTimeoutMs and falls back to line windows', async () => {
    const text = 'export function f(a: number): number {\n  return a + 1;\n}\n'.repeat(4000);
    const result = await chunkFile({ workspaceId: 'w', repoId: 'r', path: 'big.ts', lang: 'typescript', text }, { parseTimeoutMs: 1 });
    expect([result.parse, result.error]).toEqual(['fallback', 'timeout']);
    expect(result.chunks.filter((c) => c.chunkType === 'function')).toHaveLength(0);
    expect(result.chunks.at(-1)!.endLine).toBeGreaterThanOrEqual(4000 * 3 - 1);
    // The parser starts the next file afresh, not where the stopped parse left off.
    const next = await chunkFile({ workspaceId: 'w', repoId: 'r', path: 'small.ts', lang: 'typescript', text: 'export function g() {}\n' });
    expect([next.parse, next.chunks[0].name]).toEqual(['ok', 'g']);
  });

  it('emits no empty file chunk when a definition covers the whole file', async () => {
    const text = 'export class Only {\n  run(): number {\n    return 1;\n  }\n}\n';
    const alone = await chunkFile({ workspaceId: 'w', repoId: 'r', path: 'only.ts', lang: 'typescript', text });
    expect(alone.chunks.map((c) => [c.chunkType, c.symbol, c.parentId, c.startLine, c.endLine])).toEqual([['class', 'only.ts:Only', null, 0, 4]]);
    expect(alone.symbols.definitions.map((d) => d.symbol)).toEqual(['only.ts:Only', 'only.ts:Only.run']);

    const py = await chunkFile({ workspaceId: 'w', repoId: 'r', path: 'only.py', lang: 'python', text: '\n\nclass Only:\n    def run(self):\n        return 1\n' });
    expect(py.chunks.map((c) => [c.chunkType, c.symbol, c.parentId])).toEqual([['class', 'only.py:Only', null]]);

    // With a prelude the file chunk stays, holding just that prelude, as the root of the rest.
    const withImport = await chunkFile({ workspaceId: 'w', repoId: 'r', path: 'only.ts', lang: 'typescript', text: `import { x } from './x';\n\n${text}` });
    const [file, cls] = withImport.chunks;
    expect(withImport.chunks.map((c) => c.chunkType)).toEqual(['file', 'class']);
    expect(file.content).toBe("import { x } from './x';");
    expect(cls.parentId).toBe(file.id);
    for (const result of [alone, py, withImport]) for (const c of result.chunks) expect(c.content.trim()).not.toBe('');
  });

  it('chunks Markdown by headings with their heading path', async () => {
    const text = '# Guide\nIntro text.\n\n## Install\nRun npm.\n\n```sh\n# not a heading\n```\n\n### Docker\nUse compose.\n\n## Usage\nSearch.\n';
    const result = await chunkFile({ workspaceId: 'w', repoId: 'r', path: 'README.md', lang: 'markdown', text });
    const sections = result.chunks.filter((c) => c.chunkType === 'section');
    expect(sections.map((s) => s.symbol)).toEqual([
      'README.md:Guide',
      'README.md:Guide > Install',
      'README.md:Guide > Install > Docker',
      'README.md:Guide > Usage',
    ]);
    const docker = sections[2];
    expect(result.chunks.find((c) => c.id === docker.parentId)!.name).toBe('Install');
    expect(sections[1].content).toContain('# not a heading');
  });

  it('recognises setext headings, but not front matter, list items or thematic breaks', async () => {
    const text = [
      '---', 'title: Changelog', '---', '', // front matter: prelude, not a heading
      '3.0.0 / 2025-02-11', '==================', '', 'First release.', '',
      'Fixes', '-----', '', '* one', '---', '', // a list item is not heading text
      'Some words.', '', '---', '', // a thematic break after a blank line
      '2.0.0', '=====', '', 'Older.', '',
    ].join('\n');
    const result = await chunkFile({ workspaceId: 'w', repoId: 'r', path: 'History.md', lang: 'markdown', text });
    const sections = result.chunks.filter((c) => c.chunkType === 'section');
    expect(sections.map((s) => s.symbol)).toEqual(['History.md:3.0.0 / 2025-02-11', 'History.md:3.0.0 / 2025-02-11 > Fixes', 'History.md:2.0.0']);
    expect(sections.map((s) => s.startLine)).toEqual([4, 9, 19]);
    expect(result.chunks.find((c) => c.chunkType === 'file')!.content).toBe('---\ntitle: Changelog\n---');
  });

  it('continues a Markdown prelude over budget in window chunks, losing no line', async () => {
    const paragraphs = Array.from({ length: 6 }, (_, i) => `Paragraph ${i} explains one more part of the event hooks.`);
    const text = `${paragraphs.join('\n\n')}\n\n# Usage\nCall it.\n`;
    const result = await chunkFile({ workspaceId: 'w', repoId: 'r', path: 'hooks.md', lang: 'markdown', text }, { maxChunkChars: 120 });
    const file = result.chunks.find((c) => c.chunkType === 'file')!;
    const windows = result.chunks.filter((c) => c.chunkType === 'window');
    expect(windows.length).toBeGreaterThan(1);
    for (const chunk of [file, ...windows]) expect(chunk.content.replace(/\s/g, '').length).toBeLessThanOrEqual(120);
    expect(windows.every((w) => w.parentId === file.id)).toBe(true);
    const covered = [file, ...windows].map((c) => c.content).join('\n');
    for (const paragraph of paragraphs) expect(covered).toContain(paragraph);
    expect(result.chunks.find((c) => c.chunkType === 'section')!.name).toBe('Usage');
  });

  it('chunks plain text into overlapping line windows', async () => {
    const text = Array.from({ length: 200 }, (_, i) => `line number ${i} of the notes`).join('\n');
    const result = await chunkFile({ workspaceId: 'w', repoId: 'r', path: 'notes.txt', lang: null, text }, { maxChunkChars: 300, windowOverlapLines: 2 });
    expect(result.parse).toBe('unsupported');
    const [first, second] = result.chunks;
    expect(first.chunkType).toBe('file');
    expect(second.chunkType).toBe('window');
    expect(second.startLine).toBe(first.endLine - 1);
    expect(result.chunks.at(-1)!.endLine).toBe(199);
  });

  it('reports UTF-8 byte offsets', async () => {
    const text = 'const s = "héllo €";\nfunction after() {\n  return 1;\n}\n';
    const result = await chunkFile({ workspaceId: 'w', repoId: 'r', path: 'u.js', lang: 'javascript', text });
    const fn = result.chunks.find((c) => c.name === 'after')!;
    const bytes = Buffer.from(text, 'utf8');
    expect(bytes.subarray(fn.startByte, fn.endByte).toString('utf8')).toBe(fn.content);
  });

  it('uses different ids for different workspaces and repositories', async () => {
    const base = { path: 'a.py', lang: 'python' as const, text: 'def f():\n    return 1\n' };
    const a = (await chunkFile({ ...base, workspaceId: 'w1', repoId: 'r' })).chunks.map((c) => c.id);
    const b = (await chunkFile({ ...base, workspaceId: 'w2', repoId: 'r' })).chunks.map((c) => c.id);
    expect(a.some((id) => b.includes(id))).toBe(false);
    expect(a[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
