import { newDraft, type ChunkDraft } from './chunk-assembler';
import type { SourceText } from './source-text';

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^ {0,3}(```|~~~)/;

/**
 * Markdown by headings: the text before the first heading is the `file` chunk,
 * each heading starts a `section` carrying its heading path (`Setup > Docker`).
 * Sections over budget are cut into line groups that keep the same heading path.
 */
export function markdownDrafts(src: SourceText, budget: number): ChunkDraft[] {
  const file = newDraft({ chunkType: 'file' });
  const drafts: ChunkDraft[] = [file];
  const lines = src.lineStarts.length;
  const stack: { level: number; title: string }[] = [];
  let fence: string | null = null;
  let current: { start: number; path: string[] } | null = null;
  const sectionParents = new Map<string, ChunkDraft>();

  const close = (endLine: number): void => {
    const start = current ? src.lineStarts[current.start] : 0;
    const end = endLine >= 0 ? src.lineEnd(endLine) : 0;
    if (!current) {
      if (end > start) {
        file.start = start;
        file.end = end;
      }
      return;
    }
    const path = current.path;
    const parentKey = path.slice(0, -1).join('\u0000');
    const head = newDraft({
      chunkType: 'section',
      name: path[path.length - 1],
      qualifiedName: path.join(' > '),
      parent: sectionParents.get(parentKey) ?? file,
      headerLines: [`section: ${path.join(' > ')}`],
    });
    sectionParents.set(path.join('\u0000'), head);
    drafts.push(head);
    // Cut along lines when the section is over budget; continuation parts keep the heading path.
    let partStart = current.start;
    let size = 0;
    for (let line = current.start; line <= endLine; line++) {
      const s = src.size(src.lineStarts[line], src.lineEnd(line));
      if (size > 0 && size + s > budget) {
        emit(partStart, line - 1);
        partStart = line;
        size = 0;
      }
      size += s;
    }
    emit(partStart, endLine);

    function emit(fromLine: number, toLine: number): void {
      const range = { start: src.lineStarts[fromLine], end: src.lineEnd(toLine) };
      if (head.start < 0) Object.assign(head, range);
      else drafts.push(newDraft({ ...head, ...range, parent: head, id: undefined }));
    }
  };

  for (let line = 0; line < lines; line++) {
    const text = src.text.slice(src.lineStarts[line], src.lineEnd(line));
    const fenceMatch = FENCE.exec(text);
    if (fenceMatch) {
      if (fence === null) fence = fenceMatch[1];
      else if (fenceMatch[1] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const heading = HEADING.exec(text);
    if (!heading) continue;
    close(line - 1);
    const level = heading[1].length;
    while (stack.length > 0 && stack[stack.length - 1].level >= level) stack.pop();
    stack.push({ level, title: heading[2].trim() || `h${level}` });
    current = { start: line, path: stack.map((h) => h.title) };
  }
  close(lines - 1);
  return drafts;
}
