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
}

export interface ImportReference {
  /** Module specifier as written: `./session`, `os.path`, `github.com/x/y`, `std::collections::HashMap`. */
  source: string;
  /** Local names bound by the import. */
  names: string[];
  line: number;
}

/** Everything a graph search needs from one file. */
export interface FileSymbols {
  path: string;
  definitions: SymbolDefinition[];
  references: SymbolReference[];
  imports: ImportReference[];
}
