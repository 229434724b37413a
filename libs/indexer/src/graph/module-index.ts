import * as path from 'node:path';
import type { ParsedLanguage } from '../language/language';

const JS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const JS_LANGS: ReadonlySet<string> = new Set(['typescript', 'tsx', 'javascript']);

/** Module-name segments of a file, by its language's convention (`pkg/__init__.py` is `pkg`). */
function moduleSegments(filePath: string, lang: ParsedLanguage): string[] {
  const ext = path.posix.extname(filePath);
  const segments = filePath.slice(0, filePath.length - ext.length).split('/');
  const last = segments[segments.length - 1];
  if (lang === 'python' && last === '__init__') segments.pop();
  if (lang === 'rust' && (last === 'mod' || last === 'lib' || last === 'main')) segments.pop();
  if (lang === 'go') segments.pop(); // a Go package is its directory
  return segments;
}

/**
 * Maps module specifiers as written in imports to the repository's files. Relative
 * specifiers (`./a`, `.a`, `super::a`) are resolved against the importing file; absolute
 * ones (`pkg.mod`, `github.com/o/r/pkg`, `crate::a::b`, `com.x.Foo`) by the longest
 * suffix of their segments that names a module in the repository, so `src/` layouts and
 * Go module prefixes need no configuration. Unresolvable specifiers are external (`[]`).
 */
export class ModuleIndex {
  private readonly files = new Set<string>();
  /** `lang|a/b/c` → files whose module segments end with a/b/c. */
  private readonly bySuffix = new Map<string, string[]>();

  constructor(files: Iterable<{ path: string; lang: ParsedLanguage }>) {
    for (const f of files) this.add(f.path, f.lang);
  }

  has(filePath: string): boolean {
    return this.files.has(filePath);
  }

  /** Forgets a file (deleted, or about to be re-added with new facts). */
  remove(filePath: string): void {
    if (!this.files.delete(filePath)) return;
    for (const [key, list] of this.bySuffix) {
      const i = list.indexOf(filePath);
      if (i < 0) continue;
      list.splice(i, 1);
      if (!list.length) this.bySuffix.delete(key);
    }
  }

  add(filePath: string, lang: ParsedLanguage): void {
    this.files.add(filePath);
    if (JS_LANGS.has(lang)) return; // JS/TS modules are found by relative path only
    const family = lang;
    const segments = moduleSegments(filePath, lang);
    for (let i = 0; i < segments.length; i++) {
      const key = `${family}|${segments.slice(i).join('/')}`;
      const list = this.bySuffix.get(key);
      if (list) {
        if (!list.includes(filePath)) list.push(filePath);
      } else this.bySuffix.set(key, [filePath]);
    }
    // A Java package (`import a.b.*`) is its directory.
    if (lang === 'java') {
      const dir = segments.slice(0, -1);
      for (let i = 0; i < dir.length; i++) {
        const key = `${family}|${dir.slice(i).join('/')}`;
        const list = this.bySuffix.get(key);
        if (list) list.push(filePath);
        else this.bySuffix.set(key, [filePath]);
      }
    }
    // The root module of a crate or package (`lib.rs`, top `__init__.py`) has no segments of its own.
    if (segments.length === 0) this.bySuffix.set(`${family}|`, [...(this.bySuffix.get(`${family}|`) ?? []), filePath]);
  }

  /** Files a specifier written in `fromPath` refers to; several for a Go package, `[]` when external. */
  resolve(fromPath: string, lang: ParsedLanguage, specifier: string): string[] {
    switch (lang) {
      case 'typescript':
      case 'tsx':
      case 'javascript':
        return this.resolveJs(fromPath, specifier);
      case 'python':
        return this.resolvePython(fromPath, specifier);
      case 'go': {
        const segments = specifier.split('/');
        // Standard-library paths (`os`, `net/http`) have no host part; they match only in full.
        return this.longestSuffix('go', segments, segments[0].includes('.') ? 1 : segments.length);
      }
      case 'java':
        return this.longestSuffix('java', specifier.split('.'), 2);
      case 'rust':
        return this.resolveRust(fromPath, specifier);
    }
  }

  private resolveJs(fromPath: string, specifier: string): string[] {
    if (!specifier.startsWith('.')) return [];
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromPath), specifier));
    const stem = base.replace(/\.(m|c)?js$/, '');
    const candidates = [base, ...JS_EXTENSIONS.map((e) => stem + e), ...JS_EXTENSIONS.map((e) => `${base}/index${e}`)];
    const found = candidates.find((c) => this.files.has(c));
    return found ? [found] : [];
  }

  private resolvePython(fromPath: string, specifier: string): string[] {
    const dots = /^\.*/.exec(specifier)![0].length;
    const rest = specifier.slice(dots).split('.').filter(Boolean);
    if (dots === 0) return this.longestSuffix('python', rest, rest.length);
    let dir = path.posix.dirname(fromPath);
    for (let i = 1; i < dots; i++) dir = path.posix.dirname(dir);
    const base = [dir === '.' ? '' : dir, ...rest].filter(Boolean).join('/');
    return [`${base}.py`, `${base}.pyi`, `${base}/__init__.py`].filter((c) => this.files.has(c));
  }

  private resolveRust(fromPath: string, specifier: string): string[] {
    const segments = specifier.split('::').filter(Boolean);
    if (segments[0] === 'self' || segments[0] === 'super') {
      // A file's own module directory: `src/a.rs` owns `src/a/`, `src/a/mod.rs` and `lib.rs` own their directory.
      const stem = fromPath.replace(/\.rs$/, '');
      let dir = /(^|\/)(mod|lib|main)$/.test(stem) ? path.posix.dirname(stem) : stem;
      while (segments[0] === 'self' || segments[0] === 'super') {
        if (segments.shift() === 'super') dir = path.posix.dirname(dir);
      }
      const base = [dir === '.' ? '' : dir, ...segments].filter(Boolean).join('/');
      return [`${base}.rs`, `${base}/mod.rs`].filter((c) => this.files.has(c));
    }
    if (segments[0] === 'crate') segments.shift();
    if (!segments.length) {
      // `use crate::X`: the crate root, the nearest lib.rs or main.rs above the file.
      for (let dir = path.posix.dirname(fromPath); ; dir = path.posix.dirname(dir)) {
        const root = ['lib.rs', 'main.rs'].map((f) => (dir === '.' ? f : `${dir}/${f}`)).find((c) => this.files.has(c));
        if (root) return [root];
        if (dir === '.' || dir === '/') return [];
      }
    }
    return this.longestSuffix('rust', segments, segments.length);
  }

  /**
   * Files whose module segments end with the longest possible tail of `segments`, keeping at
   * least `minimum` of them (so `java.util.List` does not match some `List.java`).
   */
  private longestSuffix(family: string, segments: string[], minimum = 1): string[] {
    for (let i = 0; i <= segments.length - Math.max(1, minimum); i++) {
      const hit = this.bySuffix.get(`${family}|${segments.slice(i).join('/')}`);
      if (hit) return hit;
    }
    return [];
  }
}
