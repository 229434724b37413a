import { useMemo } from 'react';
import { highlightLines, languageFor } from '../lib/highlight';

/**
 * Code with line numbers and syntax colours. Token text is rendered as React text nodes
 * (escaped), never as HTML.
 */
export function CodeBlock({ code, startLine = 1, lang, path, label }: { code: string; startLine?: number; lang?: string | null; path?: string; label?: string }) {
  const language = languageFor(lang, path);
  const lines = useMemo(() => highlightLines(code.replace(/\n$/, ''), language), [code, language]);
  return (
    <pre className="code" aria-label={label ?? 'code'} data-language={language ?? 'text'} tabIndex={-1}>
      <code>
        {lines.map((tokens, i) => (
          <span className="code-line" key={i}>
            <span className="code-ln" aria-hidden="true">
              {startLine + i}
            </span>
            <span className="code-text">
              {tokens.map((t, k) =>
                t.type === 'plain' ? (
                  t.text
                ) : (
                  <span key={k} className={`tok-${t.type}`}>
                    {t.text}
                  </span>
                ),
              )}
              {'\n'}
            </span>
          </span>
        ))}
      </code>
    </pre>
  );
}
