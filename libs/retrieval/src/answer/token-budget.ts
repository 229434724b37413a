/** The estimate seed 004 uses: about four characters per token. */
export const CHARS_PER_TOKEN = 4;

export interface BudgetedText {
  /** The kept text (whole lines only), followed by the truncation marker when something was cut. */
  text: string;
  truncated: boolean;
  /** Lines left out (0 when not truncated). */
  omittedLines: number;
}

/** Short on purpose: it is paid from the same budget. Tool descriptions say what to do about it. */
export const truncationMarker = (omittedLines: number) => `… [truncated: ${omittedLines} more line${omittedLines === 1 ? '' : 's'}]`;

/**
 * Cuts `content` to at most `budgetChars` characters, marker included, keeping only whole
 * lines: the kept part is always a prefix of `content` that ends right after a newline
 * (or is empty). When even the marker does not fit, the result is empty.
 *
 * @example
 * truncateToLines('a\nbb\nccc\n', 1000).text // 'a\nbb\nccc\n' (fits, unchanged)
 * truncateToLines('one\ntwo\nthree\nfour\n', 36).text // 'one\ntwo\n… [truncated: 2 more lines]'
 */
export function truncateToLines(content: string, budgetChars: number): BudgetedText {
  if (content.length <= budgetChars) return { text: content, truncated: false, omittedLines: 0 };
  const lines = content.split('\n');
  // A trailing newline ends the last line rather than starting an empty one.
  const totalLines = content.endsWith('\n') ? lines.length - 1 : lines.length;
  let kept = 0;
  let used = 0;
  for (; kept < totalLines; kept++) {
    const next = used + lines[kept].length + 1;
    if (next + truncationMarker(totalLines - kept - 1).length > budgetChars) break;
    used = next;
  }
  const marker = truncationMarker(totalLines - kept);
  if (used + marker.length > budgetChars) return { text: '', truncated: true, omittedLines: totalLines };
  return { text: content.slice(0, used) + marker, truncated: true, omittedLines: totalLines - kept };
}

/**
 * Shares one budget of `maxTokens` (× {@link CHARS_PER_TOKEN} characters) across several
 * texts in order: each takes what it needs from what the earlier ones left, so the first
 * objects come back whole and the later ones are cut (or emptied, with a marker) once the
 * budget runs out. The sum of the returned texts' lengths never exceeds the budget.
 *
 * @example
 * const [a, b] = shareTokenBudget([bigChunk, otherChunk], { maxTokens: 4000 });
 */
export function shareTokenBudget(contents: readonly string[], { maxTokens, charsPerToken = CHARS_PER_TOKEN }: { maxTokens: number; charsPerToken?: number }): BudgetedText[] {
  let remaining = Math.max(0, Math.floor(maxTokens * charsPerToken));
  return contents.map((content) => {
    const out = truncateToLines(content, remaining);
    remaining -= out.text.length;
    return out;
  });
}
