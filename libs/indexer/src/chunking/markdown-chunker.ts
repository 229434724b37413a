import { newDraft, type ChunkDraft } from './chunk-assembler';
import type { SourceText } from './source-text';

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^ {0,3}(```|~~~)/;
/** The line under a setext heading: `===` makes level 1, `---` level 2. */
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
/** Lines that cannot be a setext heading's text: list items, quotes, tables, indented code. */
const NOT_HEADING_TEXT = /^(?: {4}|\t| {0,3}(?:[-*+>|]|\d+[.)])(?:[ \t]|$))/;

/**
 * Markdown by headings (ATX `## Title` and setext `Title` over `===`/`---`): the text before the
 * first heading is the `file` chunk, each heading starts a `section` carrying its heading path
 * (`Setup > Docker`). Sections over budget are cut into line groups that keep the same heading
 * path; a long prelude continues in `window` chunks.
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
        cutLines(0, endLine, (range) => {
          if (file.start < 0) Object.assign(file, range);
          else drafts.push(newDraft({ chunkType: 'window', parent: file, ...range }));
        });
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
    // Continuation parts of a section over budget keep its heading path.
    cutLines(current.start, endLine, (range) => {
      if (head.start < 0) Object.assign(head, range);
      else drafts.push(newDraft({ ...head, ...range, parent: head, id: undefined }));
    });
  };

  /** Lines [fromLine, toLine] in groups within the budget (a single longer line is a group of its own). */
  function cutLines(fromLine: number, toLine: number, emit: (range: { start: number; end: number }) => void): void {
    let partStart = fromLine;
    let size = 0;
    for (let line = fromLine; line <= toLine; line++) {
      const s = src.size(src.lineStarts[line], src.lineEnd(line));
      if (size > 0 && size + s > budget) {
        emit({ start: src.lineStarts[partStart], end: src.lineEnd(line - 1) });
        partStart = line;
        size = 0;
      }
      size += s;
    }
    emit({ start: src.lineStarts[partStart], end: src.lineEnd(toLine) });
  }

  const lineText = (line: number): string => src.text.slice(src.lineStarts[line], src.lineEnd(line));
  const startHeading = (line: number, level: number, title: string): void => {
    close(line - 1);
    while (stack.length > 0 && stack[stack.length - 1].level >= level) stack.pop();
    stack.push({ level, title: title || `h${level}` });
    current = { start: line, path: stack.map((h) => h.title) };
  };

  let line = 0;
  // YAML front matter stays in the prelude: its closing `---` is not a setext underline.
  if (lines > 1 && /^---[ \t]*$/.test(lineText(0))) {
    line = 1;
    while (line < lines && !/^(---|\.\.\.)[ \t]*$/.test(lineText(line))) line++;
    line++;
  }
  let paragraphStart = true;
  for (; line < lines; line++) {
    const text = lineText(line);
    const fenceMatch = FENCE.exec(text);
    if (fenceMatch) {
      if (fence === null) fence = fenceMatch[1];
      else if (fenceMatch[1] === fence) fence = null;
      paragraphStart = false;
      continue;
    }
    if (fence !== null) continue;
    const heading = HEADING.exec(text);
    if (heading) {
      startHeading(line, heading[1].length, heading[2].trim());
      paragraphStart = true;
      continue;
    }
    const blank = text.trim() === '';
    if (paragraphStart && !blank && line + 1 < lines && !NOT_HEADING_TEXT.test(text)) {
      const underline = SETEXT_UNDERLINE.exec(lineText(line + 1));
      if (underline) {
        startHeading(line, underline[1][0] === '=' ? 1 : 2, text.trim());
        line++;
        paragraphStart = true;
        continue;
      }
    }
    paragraphStart = blank;
  }
  close(lines - 1);
  return drafts;
}
