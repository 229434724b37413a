import { detectLanguage, isParsedLanguage } from '../language/language';
import { ParsePool } from '../parsing/parse-pool';
import { CodeGraph, type GraphEdge, type GraphFile } from './code-graph';
import { expandNeighbourhood } from './graph-expansion';

// Parsing runs on a worker thread: node-tree-sitter's wrapper breaks when Jest evaluates it again
// for another test file in the same process (see chunk-file.spec.ts), and a worker gets a fresh copy.
let pool: ParsePool;
beforeAll(() => {
  pool = new ParsePool({ size: 1, timeoutMs: 60_000 });
});
afterAll(() => pool.close());

async function parseAll(files: Record<string, string>): Promise<GraphFile[]> {
  return Promise.all(
    Object.entries(files).map(async ([path, text]) => {
      const lang = detectLanguage(path);
      if (!isParsedLanguage(lang)) throw new Error(`not parsed: ${path}`);
      const { symbols, parse } = await pool.chunk({ workspaceId: 'ws', repoId: 'repo', path, lang, text });
      if (parse !== 'ok') throw new Error(`${path} did not parse`);
      return { lang, ...symbols };
    }),
  );
}

async function graphOf(files: Record<string, string>): Promise<CodeGraph> {
  return new CodeGraph(await parseAll(files));
}

/** `from -> toPath:toKey (confidence)` for the call edges of a file. */
function calls(graph: CodeGraph, path: string, kind: GraphEdge['kind'] = 'call'): string[] {
  return graph
    .resolveFile(path)
    .edges.filter((e) => e.kind === kind)
    .map((e) => `${e.fromKey ?? '<top>'} -> ${e.toPath}:${e.toKey} (${e.confidence})`)
    .sort();
}

describe('CodeGraph: Python', () => {
  let graph: CodeGraph;
  beforeAll(async () => {
    graph = await graphOf({
      'pkg/__init__.py': 'from .store import save_record\n',
      'pkg/store.py': 'def save_record(r):\n    return r\n\n\ndef helper():\n    pass\n',
      'pkg/util.py': 'def helper():\n    pass\n',
      'pkg/other.py': 'def helper():\n    pass\n',
      'app/main.py': [
        'from pkg import save_record as persist',
        'import pkg.store as st',
        '',
        'class Service:',
        '    def run(self):',
        '        persist(1)',
        '        self.finish()',
        '        st.helper()',
        '',
        '    def finish(self):',
        '        helper()',
        '',
        '',
        'def main():',
        '    Service().run()',
        '',
      ].join('\n'),
    });
  });

  it('resolves an aliased import through a package re-export, a module alias and self. methods', () => {
    expect(calls(graph, 'app/main.py')).toEqual(
      expect.arrayContaining([
        'Service.run -> pkg/store.py:save_record (1)',
        'Service.run -> app/main.py:Service.finish (1)',
        'Service.run -> pkg/store.py:helper (1)',
        'main -> app/main.py:Service (1)',
      ]),
    );
  });

  it('keeps every candidate of an ambiguous bare name, each with a confidence below 1', () => {
    const ambiguous = calls(graph, 'app/main.py').filter((c) => c.startsWith('Service.finish'));
    expect(ambiguous).toHaveLength(3);
    for (const edge of ambiguous) expect(Number(/\(([\d.]+)\)/.exec(edge)![1])).toBeLessThan(1);
  });

  it('lists the files a module imports', () => {
    const deps = graph.resolveFile('app/main.py').dependencies.map((d) => d.toPath);
    expect(deps.sort()).toEqual(['pkg/__init__.py', 'pkg/store.py']);
  });
});

describe('CodeGraph: TypeScript and JavaScript', () => {
  let graph: CodeGraph;
  beforeAll(async () => {
    graph = await graphOf({
      'src/db/connection.ts': 'export function openConnection(url: string) {\n  return url;\n}\n',
      'src/db/index.ts': "export { openConnection as connect } from './connection';\nexport * from './pool';\n",
      'src/db/pool.ts': 'export class Pool {\n  acquire() {\n    return this.check();\n  }\n  check() {\n    return 1;\n  }\n}\n',
      'src/app.ts': [
        "import { connect, Pool } from './db';",
        "import * as conn from './db/connection';",
        'export class App {',
        '  start() {',
        "    connect('x');",
        '    conn.openConnection("y");',
        '    const pool = new Pool();',
        '    return this.stop();',
        '  }',
        '  stop() {',
        '    return 0;',
        '  }',
        '}',
        '',
      ].join('\n'),
      'lib/legacy.js': "const { openConnection } = require('../src/db/connection.ts');\nfunction boot() {\n  openConnection('z');\n}\n",
    });
  });

  it('follows a renaming re-export and an export * to the definitions, and this. to sibling methods', () => {
    expect(calls(graph, 'src/app.ts')).toEqual([
      'App.start -> src/app.ts:App.stop (1)',
      'App.start -> src/db/connection.ts:openConnection (1)',
      'App.start -> src/db/connection.ts:openConnection (1)',
      'App.start -> src/db/pool.ts:Pool (1)',
    ]);
    expect(calls(graph, 'src/db/pool.ts')).toEqual(['Pool.acquire -> src/db/pool.ts:Pool.check (1)']);
  });

  it('records imported names as import edges and require() in JavaScript as a call', () => {
    expect(calls(graph, 'src/app.ts', 'import')).toEqual(['<top> -> src/db/connection.ts:openConnection (1)', '<top> -> src/db/pool.ts:Pool (1)']);
    expect(calls(graph, 'lib/legacy.js')).toEqual(['boot -> src/db/connection.ts:openConnection (1)']);
  });
});

describe('CodeGraph: Go', () => {
  let graph: CodeGraph;
  beforeAll(async () => {
    graph = await graphOf({
      'internal/store/store.go': 'package store\n\ntype Store struct{}\n\nfunc (s *Store) Save() error {\n\treturn s.flush()\n}\n\nfunc (s *Store) flush() error {\n\treturn nil\n}\n\nfunc New() *Store {\n\treturn &Store{}\n}\n',
      'internal/store/helpers.go': 'package store\n\nfunc validate() bool {\n\treturn true\n}\n',
      'internal/store/check.go': 'package store\n\nfunc Check() bool {\n\treturn validate()\n}\n',
      'cmd/app/main.go': 'package main\n\nimport (\n\tdb "example.com/acme/internal/store"\n\t"fmt"\n)\n\nfunc main() {\n\ts := db.New()\n\ts.Save()\n\tfmt.Println("ok")\n}\n',
    });
  });

  it('resolves an aliased package import, a method on a struct and calls within a package', () => {
    expect(calls(graph, 'cmd/app/main.go')).toEqual(['main -> internal/store/store.go:New (1)', 'main -> internal/store/store.go:Store.Save (0.7)']);
    expect(calls(graph, 'internal/store/store.go')).toEqual(['Store.Save -> internal/store/store.go:Store.flush (0.7)']);
    expect(calls(graph, 'internal/store/check.go')).toEqual(['Check -> internal/store/helpers.go:validate (1)']);
    expect(graph.resolveFile('cmd/app/main.go').dependencies.filter((d) => d.toPath).map((d) => d.toPath).sort()).toEqual([
      'internal/store/check.go',
      'internal/store/helpers.go',
      'internal/store/store.go',
    ]);
  });
});

describe('CodeGraph: Java', () => {
  let graph: CodeGraph;
  beforeAll(async () => {
    graph = await graphOf({
      'src/main/java/com/acme/billing/Invoice.java': 'package com.acme.billing;\n\npublic class Invoice {\n  public static Invoice create() {\n    return new Invoice();\n  }\n  public void send() {\n    render();\n  }\n  void render() {}\n}\n',
      'src/main/java/com/acme/billing/Util.java': 'package com.acme.billing;\n\npublic class Util {\n  public static void log() {}\n}\n',
      'src/main/java/com/acme/app/Main.java': 'package com.acme.app;\n\nimport com.acme.billing.Invoice;\nimport static com.acme.billing.Util.log;\n\npublic class Main {\n  public void run() {\n    Invoice inv = Invoice.create();\n    inv.send();\n    log();\n  }\n}\n',
    });
  });

  it('resolves class imports, static imports, static calls on a class and implicit this', () => {
    expect(calls(graph, 'src/main/java/com/acme/app/Main.java')).toEqual([
      'Main.run -> src/main/java/com/acme/billing/Invoice.java:Invoice.create (1)',
      'Main.run -> src/main/java/com/acme/billing/Invoice.java:Invoice.send (0.7)',
      'Main.run -> src/main/java/com/acme/billing/Util.java:Util.log (1)',
    ]);
    expect(calls(graph, 'src/main/java/com/acme/app/Main.java', 'reference')).toEqual(['Main.run -> src/main/java/com/acme/billing/Invoice.java:Invoice (1)']);
    expect(calls(graph, 'src/main/java/com/acme/billing/Invoice.java')).toEqual([
      'Invoice.create -> src/main/java/com/acme/billing/Invoice.java:Invoice (1)',
      'Invoice.send -> src/main/java/com/acme/billing/Invoice.java:Invoice.render (1)',
    ]);
  });
});

describe('CodeGraph: Rust', () => {
  let graph: CodeGraph;
  beforeAll(async () => {
    graph = await graphOf({
      'src/lib.rs': 'pub mod storage;\npub use storage::engine::Engine;\n',
      'src/storage/mod.rs': 'pub mod engine;\n',
      'src/storage/engine.rs': 'pub struct Engine;\n\nimpl Engine {\n    pub fn new() -> Self {\n        Self::boot();\n        Engine\n    }\n    fn boot() {}\n}\n\npub fn compact() {}\n',
      'src/main.rs': 'use crate::storage::engine::{compact as squash};\nuse crate::Engine;\n\nfn main() {\n    let e = Engine::new();\n    squash();\n}\n',
    });
  });

  it('resolves use with an alias, a re-export through pub use, Type::method and Self::', () => {
    expect(calls(graph, 'src/main.rs')).toEqual(['main -> src/storage/engine.rs:Engine.new (1)', 'main -> src/storage/engine.rs:compact (1)']);
    expect(calls(graph, 'src/storage/engine.rs')).toEqual(['Engine.new -> src/storage/engine.rs:Engine.boot (1)']);
  });
});

describe('expandNeighbourhood', () => {
  it('scores neighbours by decay per hop and keeps the best path', async () => {
    const edges: Record<string, Array<{ path: string; weight: number; reason: string }>> = {
      'a.py': [{ path: 'b.py', weight: 1, reason: 'called by a' }],
      'b.py': [{ path: 'c.py', weight: 0.5, reason: 'calls c' }],
      'c.py': [{ path: 'd.py', weight: 1, reason: 'too far' }],
    };
    const found = await expandNeighbourhood(new Map([['a.py', 1]]), async (paths) => new Map(paths.map((p) => [p, edges[p] ?? []])), { maxDepth: 2, decay: 0.5 });
    expect(found.map((f) => [f.path, f.score, f.reason])).toEqual([
      ['b.py', 0.5, 'called by a'],
      ['c.py', 0.125, 'calls c'],
    ]);
  });

  it('returns a seed only when another seed is tied to it', async () => {
    const edges: Record<string, Array<{ path: string; weight: number; reason: string }>> = {
      'a.py': [{ path: 'b.py', weight: 1, reason: 'b is called by a' }, { path: 'a.py', weight: 1, reason: 'recursion' }],
      'b.py': [],
    };
    const found = await expandNeighbourhood(new Map([['a.py', 1], ['b.py', 0.4]]), async (paths) => new Map(paths.map((p) => [p, edges[p] ?? []])));
    expect(found.map((f) => [f.path, f.reason])).toEqual([['b.py', 'b is called by a']]);
  });
});

describe('CodeGraph: ambiguous names in every language', () => {
  const cases: Array<[string, Record<string, string>, string]> = [
    ['typescript', { 'a/one.ts': 'export class A {\n  close() {}\n}\n', 'b/two.ts': 'export class B {\n  close() {}\n}\n', 'c/use.ts': 'export function shut(x: any) {\n  x.close();\n}\n' }, 'c/use.ts'],
    ['javascript', { 'a/one.js': 'class A {\n  close() {}\n}\n', 'b/two.js': 'class B {\n  close() {}\n}\n', 'c/use.js': 'function shut(x) {\n  x.close();\n}\n' }, 'c/use.js'],
    ['go', { 'a/one.go': 'package a\n\ntype A struct{}\n\nfunc (a A) Close() {}\n', 'b/two.go': 'package b\n\ntype B struct{}\n\nfunc (b B) Close() {}\n', 'c/use.go': 'package c\n\nfunc Shut(x interface{ Close() }) {\n\tx.Close()\n}\n' }, 'c/use.go'],
    ['java', { 'a/A.java': 'class A {\n  void close() {}\n}\n', 'b/B.java': 'class B {\n  void close() {}\n}\n', 'c/Use.java': 'class Use {\n  void shut(java.io.Closeable x) {\n    x.close();\n  }\n}\n' }, 'c/Use.java'],
    ['rust', { 'src/a.rs': 'pub struct A;\nimpl A {\n    pub fn close(&self) {}\n}\n', 'src/b.rs': 'pub struct B;\nimpl B {\n    pub fn close(&self) {}\n}\n', 'src/use.rs': 'fn shut(x: &dyn Close) {\n    x.close();\n}\n' }, 'src/use.rs'],
  ];
  it.each(cases)('%s: a method call on a receiver of unknown type links every same-named method, split confidence', async (_lang, files, user) => {
    const edges = (await graphOf(files)).resolveFile(user).edges.filter((e) => e.kind === 'call');
    expect(edges.map((e) => e.toPath).sort()).toEqual(Object.keys(files).filter((p) => p !== user).sort());
    for (const e of edges) expect(e.confidence).toBeLessThan(0.5);
  });
});

describe('CodeGraph.update', () => {
  it('resolves after an edit and a deletion exactly like a graph built from the new files', async () => {
    const before = {
      'pkg/store.py': 'def save(r):\n    return r\n\n\ndef purge():\n    return 0\n',
      'pkg/old.py': 'def legacy():\n    return 1\n',
      'app/main.py': 'from pkg.store import save, purge\nfrom pkg.old import legacy\n\n\ndef main():\n    save(1)\n    purge()\n    legacy()\n',
    };
    const after = {
      'pkg/store.py': 'def save(r):\n    return r\n\n\ndef purge_all():\n    return 0\n',
      'pkg/new.py': 'def purge():\n    return 2\n',
      'app/main.py': before['app/main.py'].replace('from pkg.store import save, purge', 'from pkg.store import save\nfrom pkg.new import purge'),
    };
    const graph = new CodeGraph(await parseAll(before));
    const changed = await parseAll(after);
    graph.update(changed, ['pkg/old.py']);
    const rebuilt = new CodeGraph(changed);
    for (const path of Object.keys(after)) expect(graph.resolveFile(path)).toEqual(rebuilt.resolveFile(path));
    expect(calls(graph, 'app/main.py')).toEqual(['main -> pkg/new.py:purge (1)', 'main -> pkg/store.py:save (1)']);
    expect(graph.fileCount).toBe(3);
  });

  it('resolves after edits that keep every file in place exactly like a rebuilt graph (module lookups cached across the update)', async () => {
    const before = {
      'src/store.js': 'export function save(r) {\n  return r;\n}\nexport function purge() {\n  return 0;\n}\n',
      'src/main.js': "import { save, purge } from './store';\n\nfunction main() {\n  save(1);\n  purge();\n}\n",
      'pkg/a.go': 'package pkg\n\nfunc Helper() int {\n\treturn 1\n}\n',
      'pkg/b.go': 'package pkg\n\nfunc Use() int {\n\treturn Helper()\n}\n',
    };
    const after = {
      ...before,
      'src/store.js': 'export function save(r) {\n  return r;\n}\nexport function purgeAll() {\n  return 0;\n}\n',
      'pkg/a.go': 'package pkg\n\nfunc Helper2() int {\n\treturn 1\n}\n',
    };
    const graph = new CodeGraph(await parseAll(before));
    for (const path of Object.keys(before)) graph.resolveFile(path); // fills the module cache
    expect(calls(graph, 'src/main.js')).toContain('main -> src/store.js:purge (1)');
    graph.update(await parseAll({ 'src/store.js': after['src/store.js'], 'pkg/a.go': after['pkg/a.go'] }));
    const rebuilt = new CodeGraph(await parseAll(after));
    for (const path of Object.keys(after)) expect(graph.resolveFile(path)).toEqual(rebuilt.resolveFile(path));
    expect(calls(graph, 'src/main.js')).toEqual(['main -> src/store.js:save (1)']);
    expect(graph.affectedBy(['src/store.js']).sort()).toEqual(['src/main.js', 'src/store.js']);
  });

  it('finds the importers of changed files like a rebuilt graph after edits that add, drop and move imports, and after files appear and disappear', async () => {
    const v1 = {
      'src/store.js': 'export function save(r) {\n  return r;\n}\n',
      'src/cache.js': 'export function get(k) {\n  return k;\n}\n',
      'src/main.js': "import { save } from './store';\n\nsave(1);\n",
      'src/cli.js': "import { save } from './store';\nimport { get } from './cache';\n\nsave(get(1));\n",
      'src/late.js': "import { hook } from './plugin';\n\nhook();\n",
      'pkg/a.go': 'package pkg\n\nfunc Helper() int {\n\treturn 1\n}\n',
      'pkg/b.go': 'package pkg\n\nfunc Use() int {\n\treturn Helper()\n}\n',
    };
    const everyPath = (files: Record<string, string>) => [...Object.keys(files), 'src/plugin.js'];
    const expectSameAsRebuilt = async (graph: CodeGraph, files: Record<string, string>) => {
      const rebuilt = new CodeGraph(await parseAll(files));
      for (const p of everyPath(files)) expect([p, graph.affectedBy([p]).sort()]).toEqual([p, rebuilt.affectedBy([p]).sort()]);
    };
    const graph = new CodeGraph(await parseAll(v1));
    expect(graph.affectedBy(['src/store.js']).sort()).toEqual(['src/cli.js', 'src/main.js', 'src/store.js']);
    expect(graph.affectedBy(['pkg/a.go']).sort()).toEqual(['pkg/a.go', 'pkg/b.go']);

    // Edits only: main.js moves from store to cache, cli.js drops cache.
    const v2 = { ...v1, 'src/main.js': "import { get } from './cache';\n\nget(1);\n", 'src/cli.js': "import { save } from './store';\n\nsave(1);\n" };
    graph.update(await parseAll({ 'src/main.js': v2['src/main.js'], 'src/cli.js': v2['src/cli.js'] }));
    expect(graph.affectedBy(['src/store.js']).sort()).toEqual(['src/cli.js', 'src/store.js']);
    expect(graph.affectedBy(['src/cache.js']).sort()).toEqual(['src/cache.js', 'src/main.js']);
    await expectSameAsRebuilt(graph, v2);

    // A new file resolves late.js's dangling import; cache.js goes away.
    const { 'src/cache.js': _gone, ...rest } = v2;
    const v3 = { ...rest, 'src/plugin.js': 'export function hook() {\n  return 0;\n}\n' };
    graph.update(await parseAll({ 'src/plugin.js': v3['src/plugin.js'] }), ['src/cache.js']);
    expect(graph.affectedBy(['src/plugin.js']).sort()).toEqual(['src/late.js', 'src/plugin.js']);
    await expectSameAsRebuilt(graph, v3);
  });
});
