import type Parser from 'tree-sitter';
import type { ParsedLanguage } from '../language/language';
import { grammarFor, treeSitter } from '../parsing/parser-registry';
import type { ReferenceKind, SymbolDefinition, SymbolReference } from './file-symbols';

const CALLEE_NAME = /([A-Za-z_$][\w$]*)\s*(?:<[^<>]*>|::<[^<>]*>)?\s*$/;

const queries = new Map<ParsedLanguage, Parser.Query | null>();

function queryFor(lang: ParsedLanguage, source: string): Parser.Query | null {
  if (!queries.has(lang)) {
    try {
      queries.set(lang, new (treeSitter().Query)(grammarFor(lang) as Parser.Language, source));
    } catch {
      // A grammar version whose node names differ must not break chunking; references are best-effort.
      queries.set(lang, null);
    }
  }
  return queries.get(lang) ?? null;
}

/**
 * Calls, constructor calls and macro invocations, each tagged with the innermost
 * definition that contains it (run natively through a tree-sitter query).
 */
export function extractReferences(
  root: Parser.SyntaxNode,
  lang: ParsedLanguage,
  querySource: string,
  definitions: SymbolDefinition[],
  source: { text: string; lineOf: (index: number) => number },
): SymbolReference[] {
  const query = queryFor(lang, querySource);
  if (!query) return [];
  const byStartDesc = [...definitions].sort((a, b) => b.startLine - a.startLine || a.endLine - b.endLine);
  const out: SymbolReference[] = [];
  for (const capture of query.captures(root)) {
    const node = capture.node;
    // Ranges are read once and the text sliced here: each property of a node is a native call.
    const start = node.startIndex;
    const end = node.endIndex;
    // `a.b.c(...)`, `A::new(...)`, `foo<T>(...)`: the called name is the last identifier of the callee.
    const name = end - start > 200 ? undefined : CALLEE_NAME.exec(source.text.slice(start, end))?.[1];
    if (!name) continue;
    const line = source.lineOf(start);
    let from: string | null = null;
    for (const def of byStartDesc) {
      if (def.startLine <= line && def.endLine >= line) {
        from = def.symbol;
        break;
      }
    }
    out.push({ name, kind: capture.name as ReferenceKind, line, from });
  }
  return out;
}
