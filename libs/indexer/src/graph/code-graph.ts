import * as path from 'node:path';
import type { ParsedLanguage } from '../language/language';
import type { ImportBinding, ImportReference, SymbolDefinition, SymbolReference } from '../symbols/file-symbols';
import { ModuleIndex } from './module-index';

/** One parsed file as the graph sees it: its definitions, call sites and imports. */
export interface GraphFile {
  path: string;
  lang: ParsedLanguage;
  definitions: SymbolDefinition[];
  references: SymbolReference[];
  imports: ImportReference[];
}

export type GraphEdgeKind = 'call' | 'reference' | 'import';

/**
 * A resolved edge. Symbols are named by file path and {@link graphSymbolKeys} key (the
 * qualified name, plus `#n` when a file defines the same qualified name n+1 times, as Rust's
 * `struct Foo` and `impl Foo` do).
 */
export interface GraphEdge {
  fromPath: string;
  /** Key of the innermost definition around the call; `null` for top-level code and imports. */
  fromKey: string | null;
  toPath: string;
  toKey: string;
  kind: GraphEdgeKind;
  /** 1 when the target is certain; 1/n among n equally likely targets; lower for name-only guesses. */
  confidence: number;
  /** 0-based position of the call (or import) in `fromPath`. */
  line: number;
  column: number;
}

/** An import statement and the repository file it loads (`toPath: null`: an external module). */
export interface FileDependency {
  fromPath: string;
  toPath: string | null;
  source: string;
  line: number;
}

/** Tunables of name resolution. */
export interface GraphResolveOptions {
  /** A name-only guess links at most this many definitions (more: too common a name to mean anything). */
  maxAmbiguous: number;
  /** Confidence of a guess by name alone across the repository (divided among candidates). */
  globalConfidence: number;
  /** Confidence of a method call on an unknown receiver matched in a module the file imports. */
  importedMemberConfidence: number;
  /** How many re-export hops are followed. */
  maxReexportDepth: number;
}

export const DEFAULT_GRAPH_RESOLVE_OPTIONS: GraphResolveOptions = { maxAmbiguous: 5, globalConfidence: 0.5, importedMemberConfidence: 0.7, maxReexportDepth: 5 };

const SELF_RECEIVERS: ReadonlySet<string> = new Set(['self', 'this', 'Self', 'cls', 'super']);
const CALLABLE_CONTAINERS: ReadonlySet<string> = new Set(['class', 'struct', 'enum', 'interface', 'trait', 'impl', 'type']);

/** Keys of a file's definitions, in order: the qualified name without the path, `#n` for repeats. */
export function graphSymbolKeys(definitions: readonly SymbolDefinition[]): string[] {
  const seen = new Map<string, number>();
  return definitions.map((d) => {
    const local = localName(d.symbol);
    const n = seen.get(local) ?? 0;
    seen.set(local, n + 1);
    return n === 0 ? local : `${local}#${n}`;
  });
}

function localName(symbol: string): string {
  const colon = symbol.indexOf(':');
  return colon >= 0 ? symbol.slice(colon + 1) : symbol;
}

interface Def {
  file: FileNode;
  key: string;
  def: SymbolDefinition;
  /** Qualified name without the path: `S.Run`. */
  local: string;
  /** Name of the type a method belongs to (`S` for Go's `func (s S) Run`), `null` for top-level definitions. */
  owner: string | null;
}

interface FileNode {
  path: string;
  lang: ParsedLanguage;
  dir: string;
  file: GraphFile;
  defs: Def[];
  bySymbol: Map<string, Def>;
  /** Top-level definitions by name. */
  top: Map<string, Def[]>;
  bindings: Map<string, { imp: ImportReference; binding: ImportBinding }>;
  wildcards: ImportReference[];
  imported?: Set<string>;
}

type Target = { defs: Def[]; modules: FileNode[] };

/**
 * The repository's symbol graph, resolved by name with import and scope information.
 * Build it from every file's facts, then resolve the files whose edges are (re)needed:
 *
 * @example
 * const graph = new CodeGraph(files);
 * const { edges, dependencies } = graph.resolveFile('src/app.ts');
 */
export class CodeGraph {
  private readonly nodes = new Map<string, FileNode>();
  private readonly modules: ModuleIndex;
  private readonly byName = new Map<string, Def[]>();
  /** `Owner\0member` → methods named `member` of types named `Owner`, anywhere. */
  private readonly members = new Map<string, Def[]>();
  private readonly membersByName = new Map<string, Def[]>();
  private readonly packages = new Map<string, FileNode[]>();
  private readonly moduleCache = new Map<string, string[]>();
  /**
   * Path → paths of the files whose imports resolve to it, built on the first {@link affectedBy}
   * and kept through edits (a one-file job must not resolve every import of the repository);
   * dropped when files appear or disappear, which can change any import's resolution.
   */
  private importers: Map<string, Set<string>> | null = null;
  private readonly options: GraphResolveOptions;

  constructor(files: Iterable<GraphFile>, options: Partial<GraphResolveOptions> = {}) {
    this.options = { ...DEFAULT_GRAPH_RESOLVE_OPTIONS, ...options };
    const list = [...files];
    this.modules = new ModuleIndex(list);
    for (const file of list) this.addFile(file);
  }

  get fileCount(): number {
    return this.nodes.size;
  }

  /**
   * Replaces files' facts and drops deleted files, as if the graph were built again from the
   * repository's new state (what an index job's incremental resolution starts from).
   */
  update(changed: Iterable<GraphFile>, removed: Iterable<string> = []): void {
    const files = [...changed];
    const gone = [...removed];
    if (!files.length && !gone.length) return;
    // Module resolution depends only on which files exist (path and language): edits alone keep it.
    const layoutChanged = gone.some((p) => this.nodes.has(p)) || files.some((f) => this.nodes.get(f.path)?.lang !== f.lang);
    if (layoutChanged) this.importers = null;
    // Same files, new contents: the edited files' old imports leave the index before their nodes do.
    for (const f of files) this.indexImports(this.nodes.get(f.path), 'delete');
    for (const path of [...gone, ...files.map((f) => f.path)]) this.removeFile(path);
    for (const f of files) {
      this.modules.add(f.path, f.lang);
      this.addFile(f);
    }
    if (layoutChanged) {
      this.moduleCache.clear();
      // Imported paths come from module resolution and package membership: only the layout changes them.
      for (const node of this.nodes.values()) node.imported = undefined;
    }
    for (const f of files) this.indexImports(this.nodes.get(f.path), 'add');
  }

  private removeFile(path: string): void {
    const node = this.nodes.get(path);
    if (!node) return;
    this.nodes.delete(path);
    this.modules.remove(path);
    const drop = (map: Map<string, Def[]>, key: string) => {
      const list = map.get(key)?.filter((d) => d.file !== node);
      if (list?.length) map.set(key, list);
      else map.delete(key);
    };
    for (const d of node.defs) {
      drop(this.byName, d.def.name);
      if (d.owner !== null) {
        drop(this.members, `${d.owner}\0${d.def.name}`);
        drop(this.membersByName, d.def.name);
      }
    }
    const pkg = `${node.lang}|${node.dir}`;
    const members = this.packages.get(pkg)?.filter((n) => n !== node);
    if (members?.length) this.packages.set(pkg, members);
    else this.packages.delete(pkg);
  }

  private addFile(file: GraphFile): void {
    const node: FileNode = { path: file.path, lang: file.lang, dir: path.posix.dirname(file.path), file, defs: [], bySymbol: new Map(), top: new Map(), bindings: new Map(), wildcards: [] };
    const keys = graphSymbolKeys(file.definitions);
    file.definitions.forEach((def, i) => {
      const local = localName(def.symbol);
      const dot = local.lastIndexOf('.');
      const owner = dot > 0 ? local.slice(0, dot).split('.').pop()! : null;
      const d: Def = { file: node, key: keys[i], def, local, owner };
      node.defs.push(d);
      if (!node.bySymbol.has(def.symbol)) node.bySymbol.set(def.symbol, d);
      if (owner === null) push(node.top, def.name, d);
      push(this.byName, def.name, d);
      if (owner !== null) {
        push(this.members, `${owner}\0${def.name}`, d);
        push(this.membersByName, def.name, d);
      }
    });
    for (const imp of file.imports) {
      for (const binding of imp.bindings ?? []) node.bindings.set(binding.local, { imp, binding });
      if (imp.wildcard) node.wildcards.push(imp);
    }
    if (file.lang === 'go' || file.lang === 'java') push(this.packages, `${file.lang}|${node.dir}`, node);
    this.nodes.set(file.path, node);
  }

  /**
   * Files whose edges may change when `paths` change: those files, the files importing them and
   * (Go, Java) the rest of their package. Callers through other routes are found by the store
   * (edges pointing into a changed file).
   */
  affectedBy(paths: Iterable<string>): string[] {
    const changed = new Set(paths);
    const first = [...changed].filter((p) => this.nodes.has(p));
    if (!this.importers) {
      this.importers = new Map();
      for (const node of this.nodes.values()) this.indexImports(node, 'add');
    }
    const affected = new Set<string>();
    for (const p of changed) {
      const node = this.nodes.get(p);
      if (node) for (const n of this.samePackage(node)) affected.add(n.path);
      for (const importer of this.importers.get(p) ?? []) affected.add(importer);
    }
    // In the graph's file order, as when every file was tested in turn.
    const rest: string[] = [];
    if (affected.size) for (const p of this.nodes.keys()) if (affected.has(p) && !changed.has(p)) rest.push(p);
    return [...first, ...rest];
  }

  /** Adds or removes `node`'s imports in {@link importers} (when it is built). */
  private indexImports(node: FileNode | undefined, op: 'add' | 'delete'): void {
    if (!node || !this.importers) return;
    for (const imp of node.file.imports) {
      for (const target of this.moduleFiles(node, imp.module ?? imp.source)) {
        let set = this.importers.get(target.path);
        if (op === 'add') {
          if (!set) this.importers.set(target.path, (set = new Set()));
          set.add(node.path);
        } else set?.delete(node.path);
      }
    }
  }

  /** Outgoing edges and import dependencies of one file. */
  resolveFile(filePath: string): { edges: GraphEdge[]; dependencies: FileDependency[] } {
    const node = this.nodes.get(filePath);
    if (!node) return { edges: [], dependencies: [] };
    const edges = new Map<string, GraphEdge>();
    const add = (ref: { line: number; column: number }, fromKey: string | null, kind: GraphEdgeKind, targets: Def[], confidence: number) => {
      for (const t of targets) {
        const key = `${fromKey}\0${t.file.path}\0${t.key}\0${kind}\0${ref.line}\0${ref.column}`;
        const existing = edges.get(key);
        const c = Math.round((confidence / targets.length) * 1000) / 1000;
        if (!existing || existing.confidence < c) edges.set(key, { fromPath: node.path, fromKey, toPath: t.file.path, toKey: t.key, kind, confidence: c, line: ref.line, column: ref.column });
      }
    };
    const dependencies: FileDependency[] = [];
    for (const imp of node.file.imports) {
      const targets = this.moduleFiles(node, imp.module ?? imp.source);
      if (!targets.length) dependencies.push({ fromPath: node.path, toPath: null, source: imp.source, line: imp.line });
      for (const t of targets) if (t.path !== node.path) dependencies.push({ fromPath: node.path, toPath: t.path, source: imp.source, line: imp.line });
      for (const binding of imp.bindings ?? []) {
        if (binding.imported === '*') continue;
        const found = this.resolveBinding(node, imp, binding, 0);
        if (found.defs.length) add({ line: imp.line, column: 0 }, null, 'import', unique(found.defs), 1);
      }
    }
    for (const ref of node.file.references) {
      const from = ref.from === null ? null : (node.bySymbol.get(ref.from) ?? null);
      const site = { line: ref.line, column: ref.column ?? 0 };
      const resolved = this.resolveReference(node, ref, from);
      if (resolved.receiverType.length) add(site, from?.key ?? null, 'reference', resolved.receiverType, 1);
      if (resolved.defs.length) add(site, from?.key ?? null, 'call', resolved.defs, resolved.confidence);
    }
    return { edges: [...edges.values()], dependencies: dedupeDependencies(dependencies) };
  }

  private resolveReference(node: FileNode, ref: SymbolReference, from: Def | null): { defs: Def[]; confidence: number; receiverType: Def[] } {
    const none = { defs: [], confidence: 0, receiverType: [] as Def[] };
    const receiver = ref.receiver ?? null;
    const name = ref.name;
    if (receiver === null) {
      // Java calls its own methods without `this.`
      if (node.lang === 'java' && from) {
        const own = this.membersOf(node, this.ownerOf(from), name);
        if (own.length) return { defs: own, confidence: 1, receiverType: [] };
      }
      const local = (node.top.get(name) ?? []).filter((d) => !(ref.kind === 'call' && d.def.kind === 'impl'));
      if (local.length) return { defs: preferDefinitions(local), confidence: 1, receiverType: [] };
      const bound = node.bindings.get(name);
      if (bound) {
        const found = this.resolveBinding(node, bound.imp, bound.binding, 0);
        // An import of something outside the repository: a known name, but no edge.
        return found.defs.length ? { defs: preferDefinitions(found.defs), confidence: 1, receiverType: [] } : none;
      }
      const samePackage = this.samePackage(node).flatMap((n) => n.top.get(name) ?? []);
      if (samePackage.length) return { defs: preferDefinitions(samePackage), confidence: 1, receiverType: [] };
      for (const imp of node.wildcards) {
        const found = this.resolveInModules(this.moduleFiles(node, imp.module ?? imp.source), name, 1);
        if (found.length) return { defs: preferDefinitions(found), confidence: 1, receiverType: [] };
      }
      const global = (this.byName.get(name) ?? []).filter((d) => d.owner === null && d.def.kind !== 'impl');
      if (global.length && global.length <= this.options.maxAmbiguous) return { defs: global, confidence: this.options.globalConfidence, receiverType: [] };
      return none;
    }
    if (SELF_RECEIVERS.has(receiver) && from) {
      const owner = this.ownerOf(from);
      const own = this.membersOf(node, owner, name);
      if (own.length) return { defs: own, confidence: 1, receiverType: [] };
      // Inherited or mixed in: any method of that name, if the name is specific enough.
      return this.anyMember(name, this.options.globalConfidence);
    }
    const receiverTarget = this.resolveReceiver(node, receiver);
    if (receiverTarget) {
      if (receiverTarget.modules.length) {
        const defs = this.resolveInModules(receiverTarget.modules, name, 0);
        return defs.length ? { defs: preferDefinitions(defs), confidence: 1, receiverType: [] } : none;
      }
      const types = receiverTarget.defs.filter((d) => CALLABLE_CONTAINERS.has(d.def.kind));
      if (types.length) {
        const defs = types.flatMap((t) => this.membersOf(t.file, t.local, name));
        return { defs: unique(defs), confidence: 1, receiverType: preferDefinitions(types) };
      }
      return none;
    }
    // A variable or expression of unknown type: its method, preferably from a module this file imports.
    const candidates = this.membersByName.get(name) ?? [];
    if (!candidates.length) return none;
    const imported = this.importedPaths(node);
    const near = candidates.filter((d) => imported.has(d.file.path));
    if (near.length && near.length <= this.options.maxAmbiguous) return { defs: near, confidence: this.options.importedMemberConfidence, receiverType: [] };
    return this.anyMember(name, this.options.globalConfidence * 0.6);
  }

  /** The file, its package and every repository file it imports. */
  private importedPaths(node: FileNode): Set<string> {
    if (!node.imported) {
      node.imported = new Set<string>([node.path, ...this.samePackage(node).map((n) => n.path)]);
      for (const imp of node.file.imports) for (const t of this.moduleFiles(node, imp.module ?? imp.source)) node.imported.add(t.path);
    }
    return node.imported;
  }

  private anyMember(name: string, confidence: number): { defs: Def[]; confidence: number; receiverType: Def[] } {
    const all = this.membersByName.get(name) ?? [];
    if (!all.length || all.length > this.options.maxAmbiguous) return { defs: [], confidence: 0, receiverType: [] };
    return { defs: all, confidence, receiverType: [] };
  }

  /** What a receiver names: a module (namespace import, package alias, `crate::a`), or a type. */
  private resolveReceiver(node: FileNode, receiver: string): Target | null {
    if (receiver === '()') return null;
    const bound = node.bindings.get(receiver);
    if (bound) {
      const found = this.resolveBinding(node, bound.imp, bound.binding, 0);
      return found.defs.length || found.modules.length ? found : null;
    }
    const local = node.top.get(receiver) ?? this.samePackage(node).flatMap((n) => n.top.get(receiver) ?? []);
    if (local.length) return { defs: local, modules: [] };
    if (/[.:]/.test(receiver)) {
      // `crate::store::save()`, `os.path.join()` written out in full, or `pkg.Class.method()`.
      const modules = this.moduleFiles(node, receiver);
      if (modules.length) return { defs: [], modules };
      const sep = receiver.includes('::') ? '::' : '.';
      const cut = receiver.lastIndexOf(sep);
      const head = this.resolveReceiver(node, receiver.slice(0, cut));
      const last = receiver.slice(cut + sep.length);
      if (head?.modules.length) {
        const defs = this.resolveInModules(head.modules, last, 0);
        if (defs.length) return { defs, modules: [] };
      }
    }
    return null;
  }

  /** The local name of the type whose members `self`/`this` reach from inside `from`. */
  private ownerOf(from: Def): string | null {
    let d: Def | undefined = from;
    while (d) {
      if (d.owner !== null && d.def.kind === 'method') return d.local.slice(0, d.local.length - d.def.name.length - 1);
      if (CALLABLE_CONTAINERS.has(d.def.kind)) return d.local;
      d = d.def.parent ? d.file.bySymbol.get(d.def.parent) : undefined;
    }
    return null;
  }

  /** Methods named `name` of the type `ownerLocal`: in its own file first, then its package, then impls elsewhere (Rust, Go). */
  private membersOf(node: FileNode, ownerLocal: string | null, name: string): Def[] {
    if (ownerLocal === null) return [];
    const ownerName = ownerLocal.split('.').pop()!;
    const all = this.members.get(`${ownerName}\0${name}`) ?? [];
    const inFile = all.filter((d) => d.file === node && d.local === `${ownerLocal}.${name}`);
    if (inFile.length) return inFile;
    const sameDir = all.filter((d) => d.file.dir === node.dir);
    if (sameDir.length) return sameDir;
    return node.lang === 'rust' && all.length <= this.options.maxAmbiguous ? all : [];
  }

  private samePackage(node: FileNode): FileNode[] {
    if (node.lang !== 'go' && node.lang !== 'java') return [];
    return (this.packages.get(`${node.lang}|${node.dir}`) ?? []).filter((n) => n !== node);
  }

  private moduleFiles(node: FileNode, specifier: string): FileNode[] {
    // Only Rust resolves `self::`/`super::` against the file itself; the rest against its directory.
    const cacheKey = `${node.lang}|${node.lang === 'rust' ? node.path : node.dir}|${specifier}`;
    // Paths, not nodes: an edited file gets a new node but resolves the same.
    let hit = this.moduleCache.get(cacheKey);
    if (!hit) {
      hit = this.modules.resolve(node.path, node.lang, specifier).filter((p) => this.nodes.has(p));
      this.moduleCache.set(cacheKey, hit);
    }
    return hit.map((p) => this.nodes.get(p)!);
  }

  /** What an import binding stands for: definitions (following re-exports), or a module. */
  private resolveBinding(node: FileNode, imp: ImportReference, binding: ImportBinding, depth: number): Target {
    const specifier = imp.module ?? imp.source;
    let modules = this.moduleFiles(node, specifier);
    let imported = binding.imported;
    if (imported.includes('::')) {
      const cut = imported.lastIndexOf('::');
      modules = this.moduleFiles(node, `${specifier}::${imported.slice(0, cut)}`);
      imported = imported.slice(cut + 2);
    }
    if (imported === '*') return { defs: [], modules };
    let defs = this.resolveInModules(modules, imported, depth);
    if (!defs.length && imported === 'default') {
      const named = this.resolveInModules(modules, binding.local, depth);
      const sole = modules.flatMap((m) => [...m.top.values()].flat()).filter((d) => d.def.kind === 'class' || d.def.kind === 'function');
      defs = named.length ? named : sole.length === 1 ? sole : [];
    }
    if (defs.length) return { defs, modules: [] };
    // `from pkg import mod`, `use crate::a::b` where `b` is a module.
    const sub = submoduleSpecifier(node.lang, specifier, imported);
    const submodules = sub ? this.moduleFiles(node, sub) : [];
    return { defs: [], modules: submodules };
  }

  /** Definitions named `name` in these modules, through their own imports and re-exports. */
  private resolveInModules(modules: FileNode[], name: string, depth: number): Def[] {
    const out: Def[] = [];
    for (const m of modules) {
      const own = m.top.get(name);
      if (own?.length) {
        out.push(...own);
        continue;
      }
      // Java's `import static a.b.C.m` names a member of the class file.
      const statics = m.lang === 'java' ? m.defs.filter((d) => d.owner !== null && d.def.name === name) : [];
      if (statics.length) {
        out.push(...statics);
        continue;
      }
      if (depth >= this.options.maxReexportDepth) continue;
      const bound = m.bindings.get(name);
      if (bound) {
        out.push(...this.resolveBinding(m, bound.imp, bound.binding, depth + 1).defs);
        continue;
      }
      for (const imp of m.wildcards) {
        const found = this.resolveInModules(this.moduleFiles(m, imp.module ?? imp.source), name, depth + 1);
        if (found.length) {
          out.push(...found);
          break;
        }
      }
    }
    return unique(out);
  }
}

function submoduleSpecifier(lang: ParsedLanguage, specifier: string, name: string): string | null {
  switch (lang) {
    case 'python':
      return /\.$/.test(specifier) ? `${specifier}${name}` : `${specifier}.${name}`;
    case 'rust':
      return `${specifier}::${name}`;
    case 'java':
      return `${specifier}.${name}`;
    default:
      return null;
  }
}

/** A type and its impl block share a name: link the type. */
function preferDefinitions(defs: Def[]): Def[] {
  const distinct = unique(defs);
  const withoutImpl = distinct.filter((d) => d.def.kind !== 'impl');
  return withoutImpl.length ? withoutImpl : distinct;
}

function unique(defs: Def[]): Def[] {
  const seen = new Set<string>();
  return defs.filter((d) => {
    const k = `${d.file.path}\0${d.key}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function dedupeDependencies(deps: FileDependency[]): FileDependency[] {
  const seen = new Set<string>();
  return deps.filter((d) => {
    const k = `${d.toPath}\0${d.source}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
