export type SymbolKind =
  | 'class'
  | 'interface'
  | 'enum'
  | 'struct'
  | 'trait'
  | 'impl'
  | 'module'
  | 'type'
  | 'function'
  | 'method';

/** A definition found in a file. Lines 0-indexed inclusive; bytes UTF-8, end exclusive. */
export interface SymbolDefinition {
  name: string;
  /** e.g. `auth/session.ts:SessionStore.refresh` */
  symbol: string;
  kind: SymbolKind;
  /** Qualified symbol of the enclosing definition, if any. */
  parent: string | null;
  startLine: number;
  endLine: number;
  startByte: number;
  endByte: number;
}

export type ReferenceKind = 'call' | 'new' | 'macro';

/** A use of a name: a call, a constructor call, a macro invocation. */
export interface SymbolReference {
  name: string;
  kind: ReferenceKind;
  line: number;
  /** Qualified symbol of the innermost definition containing the reference, `null` at top level. */
  from: string | null;
  /**
   * What the name was called on, as written: `self` in `self.save()`, `os.path` in `os.path.join()`,
   * `Foo` in `Foo::new()`; `null` for a bare call, `()` when it is the result of an expression.
   */
  receiver?: string | null;
  /** 0-based column (UTF-16) of the called name on `line`. */
  column?: number;
}

/** One local name an import binds. `imported` is `*` when the local name is the module itself (`import * as m`, `import os.path as op`, a Go package). */
export interface ImportBinding {
  imported: string;
  local: string;
}

export interface ImportReference {
  /** Module specifier as written: `./session`, `os.path`, `github.com/x/y`, `std::collections::HashMap`. */
  source: string;
  /** Local names bound by the import. */
  names: string[];
  line: number;
  /** Module part of `source` when it differs (Java `import a.b.C.m` → `a.b.C`, Rust `use a::b::{c, d}` → `a::b`). */
  module?: string;
  /** Which imported name each local name stands for. */
  bindings?: ImportBinding[];
  /** Every exported name of the module is visible (`from m import *`, `export * from`, Java `a.b.*`, Go dot import). */
  wildcard?: boolean;
  /** The file passes the names on (`export { a } from './a'`, Rust `pub use`). */
  reexport?: boolean;
}

/** Everything a graph search needs from one file. */
export interface FileSymbols {
  path: string;
  definitions: SymbolDefinition[];
  references: SymbolReference[];
  imports: ImportReference[];
}
