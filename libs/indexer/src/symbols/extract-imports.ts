import type Parser from 'tree-sitter';
import type { ParsedLanguage } from '../language/language';
import type { ImportReference } from './file-symbols';

type Node = Parser.SyntaxNode;

const REQUIRE = /\brequire\(\s*['"]([^'"]+)['"]\s*\)/;

function unquote(text: string): string {
  return text.replace(/^['"`]|['"`]$/g, '');
}

/**
 * Imports declared at the top level of a file (Python: anywhere at module level),
 * with the local names they bind so chunks can list the imports they use.
 */
export function extractImports(root: Node, lang: ParsedLanguage, importTypes: ReadonlySet<string>): ImportReference[] {
  const out: ImportReference[] = [];
  for (const node of root.namedChildren) {
    if (importTypes.has(node.type)) {
      out.push(...importsOf(node, lang));
    } else if ((lang === 'javascript' || lang === 'typescript' || lang === 'tsx') && /^(lexical|variable)_declaration$/.test(node.type)) {
      const match = REQUIRE.exec(node.text);
      if (match) {
        const declarator = node.namedChildren.find((c) => c.type === 'variable_declarator');
        const names = declarator?.childForFieldName('name')?.text.match(/[A-Za-z_$][\w$]*/g) ?? [];
        out.push({ source: match[1], names, line: node.startPosition.row });
      }
    }
  }
  return out;
}

function importsOf(node: Node, lang: ParsedLanguage): ImportReference[] {
  const line = node.startPosition.row;
  switch (lang) {
    case 'typescript':
    case 'tsx':
    case 'javascript': {
      const source = node.childForFieldName('source');
      if (!source) return [];
      const names: string[] = [];
      const clause = node.namedChildren.find((c) => c.type === 'import_clause');
      for (const part of clause?.namedChildren ?? []) {
        if (part.type === 'identifier') names.push(part.text);
        else if (part.type === 'namespace_import') {
          const id = part.namedChildren.find((c) => c.type === 'identifier');
          if (id) names.push(id.text);
        } else if (part.type === 'named_imports') {
          for (const spec of part.namedChildren) {
            if (spec.type !== 'import_specifier') continue;
            const local = spec.childForFieldName('alias') ?? spec.childForFieldName('name');
            if (local) names.push(local.text);
          }
        }
      }
      return [{ source: unquote(source.text), names, line }];
    }
    case 'python': {
      const text = node.text.replace(/\s+/g, ' ');
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
      return node.descendantsOfType('import_spec').map((spec) => {
        const path = unquote(spec.childForFieldName('path')?.text ?? '');
        const alias = spec.childForFieldName('name')?.text;
        return { source: path, names: [alias ?? path.split('/').pop() ?? path], line: spec.startPosition.row };
      });
    }
    case 'java': {
      const source = node.text.replace(/^import\s+(static\s+)?/, '').replace(/;\s*$/, '').trim();
      const last = source.split('.').pop() ?? '';
      return [{ source, names: last === '*' ? [] : [last], line }];
    }
    case 'rust': {
      const source = node.text.replace(/^(pub(\([^)]*\))?\s+)?(use|extern crate)\s+/, '').replace(/;\s*$/, '').trim();
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
