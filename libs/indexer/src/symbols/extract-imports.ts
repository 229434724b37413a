import type { ParsedLanguage } from '../language/language';
import type { LiteNode } from '../parsing/lite-node';
import type { ImportBinding, ImportReference } from './file-symbols';

type Node = LiteNode;

/** The file's text, to read node text and lines without asking tree-sitter. */
export interface ImportSource {
  text: string;
  lineOf(index: number): number;
}

const IMPORT_SPEC = new Set(['import_spec']);

const REQUIRE = /\brequire\(\s*['"]([^'"]+)['"]\s*\)/;

function unquote(text: string): string {
  return text.replace(/^['"`]|['"`]$/g, '');
}

/**
 * Imports declared at the top level of a file (Python: anywhere at module level),
 * with the local names they bind so chunks can list the imports they use.
 */
export function extractImports(root: Node, lang: ParsedLanguage, importTypes: ReadonlySet<string>, src: ImportSource): ImportReference[] {
  const out: ImportReference[] = [];
  const textOf = (node: Node): string => src.text.slice(node.startIndex, node.endIndex);
  const lineOf = (node: Node): number => src.lineOf(node.startIndex);
  for (const node of root.namedChildren) {
    if (importTypes.has(node.type)) {
      out.push(...importsOf(node, lang, textOf, lineOf));
    } else if ((lang === 'javascript' || lang === 'typescript' || lang === 'tsx') && node.type === 'export_statement' && node.childForFieldName('source')) {
      out.push(reexportOf(node, textOf, lineOf(node)));
    } else if ((lang === 'javascript' || lang === 'typescript' || lang === 'tsx') && /^(lexical|variable)_declaration$/.test(node.type)) {
      const match = REQUIRE.exec(textOf(node));
      if (match) {
        const declarator = node.namedChildren.find((c) => c.type === 'variable_declarator');
        const nameNode = declarator?.childForFieldName('name');
        const pattern = nameNode ? textOf(nameNode) : '';
        const names = pattern.match(/[A-Za-z_$][\w$]*/g) ?? [];
        out.push({ source: match[1], names, line: lineOf(node), bindings: requireBindings(nameNode?.type, pattern) });
      }
    }
  }
  return out;
}

function importsOf(node: Node, lang: ParsedLanguage, textOf: (node: Node) => string, lineOf: (node: Node) => number): ImportReference[] {
  const line = lineOf(node);
  switch (lang) {
    case 'typescript':
    case 'tsx':
    case 'javascript': {
      const source = node.childForFieldName('source');
      if (!source) return [];
      const names: string[] = [];
      const bindings: ImportBinding[] = [];
      const clause = node.namedChildren.find((c) => c.type === 'import_clause');
      for (const part of clause?.namedChildren ?? []) {
        if (part.type === 'identifier') {
          names.push(textOf(part));
          bindings.push({ imported: 'default', local: textOf(part) });
        } else if (part.type === 'namespace_import') {
          const id = part.namedChildren.find((c) => c.type === 'identifier');
          if (id) {
            names.push(textOf(id));
            bindings.push({ imported: '*', local: textOf(id) });
          }
        } else if (part.type === 'named_imports') {
          for (const spec of part.namedChildren) {
            if (spec.type !== 'import_specifier') continue;
            const name = spec.childForFieldName('name');
            const local = spec.childForFieldName('alias') ?? name;
            if (local) names.push(textOf(local));
            if (name && local) bindings.push({ imported: unquote(textOf(name)), local: textOf(local) });
          }
        }
      }
      return [{ source: unquote(textOf(source)), names, line, bindings }];
    }
    case 'python': {
      const text = textOf(node).replace(/\s+/g, ' ');
      if (node.type === 'import_statement') {
        return text
          .replace(/^import /, '')
          .split(',')
          .map((part) => {
            const [module, alias] = part.trim().split(/ as /);
            // `import a.b` binds `a`, through which `a.b.f()` is called: the binding is the dotted name.
            const local = alias?.trim() ?? module.trim();
            return { source: module.trim(), names: [alias?.trim() ?? module.trim().split('.')[0]], line, bindings: [{ imported: '*', local }] };
          });
      }
      const match = /^from (\S+) import (.*)$/.exec(text);
      if (!match) return [];
      const parts = match[2]
        .replace(/[()]/g, '')
        .split(',')
        .map((part) => part.trim().split(/ as /).map((p) => p.trim()))
        .filter(([name]) => name);
      const names = parts.map((p) => p[p.length - 1]).filter((name) => name !== '*');
      const bindings = parts.filter(([name]) => name !== '*').map((p) => ({ imported: p[0], local: p[p.length - 1] }));
      const wildcard = parts.some(([name]) => name === '*');
      return [{ source: match[1], names, line, bindings, ...(wildcard ? { wildcard } : {}) }];
    }
    case 'go': {
      return node.descendantsOfType(IMPORT_SPEC).map((spec) => {
        const pathNode = spec.childForFieldName('path');
        const path = unquote(pathNode ? textOf(pathNode) : '');
        const aliasNode = spec.childForFieldName('name');
        const alias = aliasNode ? textOf(aliasNode) : undefined;
        const local = alias ?? path.split('/').pop() ?? path;
        const ref: ImportReference = { source: path, names: [local], line: lineOf(spec) };
        if (alias === '.') ref.wildcard = true;
        else if (alias !== '_') ref.bindings = [{ imported: '*', local }];
        return ref;
      });
    }
    case 'java': {
      const source = textOf(node).replace(/^import\s+(static\s+)?/, '').replace(/;\s*$/, '').replace(/\s+/g, '').trim();
      const isStatic = /^import\s+static\b/.test(textOf(node));
      const segments = source.split('.');
      const last = segments.pop() ?? '';
      if (last === '*') return [{ source, names: [], line, module: segments.join('.'), wildcard: true }];
      // `import a.b.C` names the class file a/b/C.java; `import static a.b.C.m` a member of it.
      return [{ source, names: [last], line, module: isStatic ? segments.join('.') : source, bindings: [{ imported: last, local: last }] }];
    }
    case 'rust': {
      const text = textOf(node);
      const source = text.replace(/^(pub(\([^)]*\))?\s+)?(use|extern crate)\s+/, '').replace(/;\s*$/, '').trim();
      const names: string[] = [];
      const braces = /\{([^}]*)\}/.exec(source);
      const parts = braces ? braces[1].split(',') : [source.split('::').pop() ?? ''];
      for (const part of parts) {
        const name = part.trim().split(/\s+as\s+/).pop()!.split('::').pop()!.trim();
        if (name && name !== '*' && name !== 'self') names.push(name);
      }
      if (node.type !== 'use_declaration') return [{ source, names, line }];
      return [{ source, names, line, ...rustUse(source), ...(/^pub\b/.test(text) ? { reexport: true } : {}) }];
    }
  }
}

/** `export { a as b } from './a'`, `export * from './a'`, `export * as ns from './a'`. */
function reexportOf(node: Node, textOf: (node: Node) => string, line: number): ImportReference {
  const source = unquote(textOf(node.childForFieldName('source')!));
  const bindings: ImportBinding[] = [];
  let wildcard = false;
  const clause = node.namedChildren.find((c) => c.type === 'export_clause');
  if (clause) {
    for (const spec of clause.namedChildren) {
      if (spec.type !== 'export_specifier') continue;
      const name = spec.childForFieldName('name');
      const alias = spec.childForFieldName('alias') ?? name;
      if (name && alias) bindings.push({ imported: unquote(textOf(name)), local: unquote(textOf(alias)) });
    }
  } else {
    const namespace = node.namedChildren.find((c) => c.type === 'namespace_export');
    const id = namespace?.namedChildren.find((c) => c.type === 'identifier' || c.type === 'string');
    if (id) bindings.push({ imported: '*', local: unquote(textOf(id)) });
    else wildcard = true;
  }
  return { source, names: [], line, bindings, reexport: true, ...(wildcard ? { wildcard } : {}) };
}

/** `const m = require('x')` binds the module; `const { a, b: c } = require('x')` binds its members. */
function requireBindings(patternType: string | undefined, pattern: string): ImportBinding[] {
  if (patternType === 'identifier') return [{ imported: '*', local: pattern }];
  if (patternType !== 'object_pattern') return [];
  return pattern
    .replace(/[{}]/g, '')
    .split(',')
    .map((part) => part.split(':').map((p) => p.trim().split(/\s*=/)[0]))
    .filter(([name]) => /^[A-Za-z_$][\w$]*$/.test(name))
    .map((p) => ({ imported: p[0], local: p[p.length - 1] }));
}

/** Module path, bindings and wildcard of a Rust `use` (one level of braces). */
function rustUse(source: string): Pick<ImportReference, 'module' | 'bindings' | 'wildcard'> {
  const braces = /^(.*?)::\{(.*)\}$/s.exec(source);
  const bindings: ImportBinding[] = [];
  let wildcard = false;
  const add = (module: string, item: string) => {
    const [path, alias] = item.split(/\s+as\s+/).map((p) => p.trim());
    const segments = path.split('::');
    const name = segments.pop()!;
    if (name === '*') wildcard = true;
    else if (name === 'self') bindings.push({ imported: '*', local: alias ?? module.split('::').pop()! });
    else if (name) bindings.push({ imported: [...segments, name].join('::'), local: alias ?? name });
  };
  if (braces) {
    for (const part of braces[2].split(',')) if (part.trim()) add(braces[1], part.trim());
    return { module: braces[1], bindings, ...(wildcard ? { wildcard } : {}) };
  }
  const segments = source.split('::');
  const last = segments.pop()!;
  add(segments.join('::'), last);
  return { module: segments.join('::'), bindings, ...(wildcard ? { wildcard } : {}) };
}
