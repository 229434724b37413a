import type { ParsedLanguage } from '../language/language';
import type { LiteNode } from '../parsing/lite-node';
import type { ImportReference } from './file-symbols';

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
    } else if ((lang === 'javascript' || lang === 'typescript' || lang === 'tsx') && /^(lexical|variable)_declaration$/.test(node.type)) {
      const match = REQUIRE.exec(textOf(node));
      if (match) {
        const declarator = node.namedChildren.find((c) => c.type === 'variable_declarator');
        const nameNode = declarator?.childForFieldName('name');
        const names = (nameNode ? textOf(nameNode) : '').match(/[A-Za-z_$][\w$]*/g) ?? [];
        out.push({ source: match[1], names, line: lineOf(node) });
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
      const clause = node.namedChildren.find((c) => c.type === 'import_clause');
      for (const part of clause?.namedChildren ?? []) {
        if (part.type === 'identifier') names.push(textOf(part));
        else if (part.type === 'namespace_import') {
          const id = part.namedChildren.find((c) => c.type === 'identifier');
          if (id) names.push(textOf(id));
        } else if (part.type === 'named_imports') {
          for (const spec of part.namedChildren) {
            if (spec.type !== 'import_specifier') continue;
            const local = spec.childForFieldName('alias') ?? spec.childForFieldName('name');
            if (local) names.push(textOf(local));
          }
        }
      }
      return [{ source: unquote(textOf(source)), names, line }];
    }
    case 'python': {
      const text = textOf(node).replace(/\s+/g, ' ');
      if (node.type === 'import_statement') {
        return text
          .replace(/^import /, '')
          .split(',')
          .map((part) => {
            const [module, alias] = part.trim().split(/ as /);
            return { source: module.trim(), names: [alias?.trim() ?? module.trim().split('.')[0]], line };
          });
      }
      const match = /^from (\S+) import (.*)$/.exec(text);
      if (!match) return [];
      const names = match[2]
        .replace(/[()]/g, '')
        .split(',')
        .map((part) => part.trim().split(/ as /).pop()!.trim())
        .filter((name) => name && name !== '*');
      return [{ source: match[1], names, line }];
    }
    case 'go': {
      return node.descendantsOfType(IMPORT_SPEC).map((spec) => {
        const pathNode = spec.childForFieldName('path');
        const path = unquote(pathNode ? textOf(pathNode) : '');
        const aliasNode = spec.childForFieldName('name');
        const alias = aliasNode ? textOf(aliasNode) : undefined;
        return { source: path, names: [alias ?? path.split('/').pop() ?? path], line: lineOf(spec) };
      });
    }
    case 'java': {
      const source = textOf(node).replace(/^import\s+(static\s+)?/, '').replace(/;\s*$/, '').trim();
      const last = source.split('.').pop() ?? '';
      return [{ source, names: last === '*' ? [] : [last], line }];
    }
    case 'rust': {
      const source = textOf(node).replace(/^(pub(\([^)]*\))?\s+)?(use|extern crate)\s+/, '').replace(/;\s*$/, '').trim();
      const names: string[] = [];
      const braces = /\{([^}]*)\}/.exec(source);
      const parts = braces ? braces[1].split(',') : [source.split('::').pop() ?? ''];
      for (const part of parts) {
        const name = part.trim().split(/\s+as\s+/).pop()!.split('::').pop()!.trim();
        if (name && name !== '*' && name !== 'self') names.push(name);
      }
      return [{ source, names, line }];
    }
  }
}
