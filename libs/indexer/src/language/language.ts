import * as path from 'node:path';

/** Languages Sextant understands structurally. `null` means plain text (line windows). */
export type Language = 'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'java' | 'rust' | 'markdown';

/** Languages parsed with tree-sitter (markdown is chunked by headings instead). */
export type ParsedLanguage = Exclude<Language, 'markdown'>;

const BY_EXTENSION: Record<string, Language> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript',
  '.jsx': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.py': 'python',
  '.pyi': 'python',
  '.go': 'go',
  '.java': 'java',
  '.rs': 'rust',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.mdx': 'markdown',
};

/**
 * Language of a file from its name, or `null` for anything chunked as plain text.
 *
 * @example detectLanguage('src/auth/session.ts') // 'typescript'
 */
export function detectLanguage(filePath: string): Language | null {
  return BY_EXTENSION[path.extname(filePath).toLowerCase()] ?? null;
}

export function isParsedLanguage(lang: Language | null): lang is ParsedLanguage {
  return lang !== null && lang !== 'markdown';
}
