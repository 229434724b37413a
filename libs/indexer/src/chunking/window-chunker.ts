import { newDraft, type ChunkDraft } from './chunk-assembler';
import type { SourceText } from './source-text';

/**
 * Overlapping line windows within the budget: the first becomes the `file`
 * chunk, the rest `window` chunks under it. A single line over budget is kept whole.
 */
export function windowDrafts(src: SourceText, budget: number, overlapLines: number): ChunkDraft[] {
  const file = newDraft({ chunkType: 'file' });
  const drafts: ChunkDraft[] = [file];
  const lineCount = src.lineStarts.length;
  let first = 0;
  while (first < lineCount) {
    let last = first;
    let size = src.size(src.lineStarts[first], src.lineEnd(first));
    while (last + 1 < lineCount) {
      const next = src.size(src.lineStarts[last + 1], src.lineEnd(last + 1));
      if (size + next > budget) break;
      size += next;
      last++;
    }
    const start = src.lineStarts[first];
    const end = src.lineEnd(last);
    if (src.size(start, end) > 0) {
      if (file.start < 0) {
        file.start = start;
        file.end = end;
      } else drafts.push(newDraft({ chunkType: 'window', start, end, parent: file }));
    }
    if (last + 1 >= lineCount) break;
    first = Math.max(first + 1, last + 1 - overlapLines);
  }
  return drafts;
}
