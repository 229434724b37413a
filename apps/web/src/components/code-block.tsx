import { useMemo } from 'react';
import { highlightLines, languageFor } from '../lib/highlight';

/**
 * Code with line numbers and syntax colours; `marked` lines (1-based numbers as shown) are
 * highlighted and `lineIds` gives each line the id `L<n>` to scroll to. Token text is rendered as React text nodes
 * (escaped), never as HTML.
 */
export function CodeBlock({ code, startLine = 1, lang, path, label, marked, lineIds = false }: { code: string; startLine?: number; lang?: string | null; path?: string; label?: string; marked?: ReadonlySet<number>; lineIds?: boolean }) {
  const language = languageFor(lang, path);
  const lines = useMemo(() => highlightLines(code.replace(/\n$/, ''), language), [code, language]);
  return (
    <pre className="code" aria-label={label ?? 'code'} data-language={language ?? 'text'} tabIndex={-1}>
      <code>
        {lines.map((tokens, i) => (
          <span className={marked?.has(startLine + i) ? 'code-line code-hit' : 'code-line'} key={i} id={lineIds ? `L${startLine + i}` : undefined}>
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
