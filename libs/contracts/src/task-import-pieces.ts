import type { TaskImportResult } from './tasks';

/** Largest piece of a task file sent in one import request, as JSON (the server's default body limit is 1 MB). */
export const TASK_IMPORT_PIECE_BYTES = 512 * 1024;

/** One request's worth of a task file, and how far its line numbers are from the file's. */
export interface TaskFilePiece {
  content: string;
  lineShift: number;
}

/**
 * A task file cut into import requests of at most `maxBytes` as JSON: whole JSONL lines, or whole
 * CSV records (quoted line breaks kept) each piece after the header row. A file that fits, or a
 * CSV whose quotes do not balance, is one piece, so the server says what is wrong with it.
 *
 * @example
 * for (const piece of taskFilePieces('csv', text)) merge(total, await post({ format: 'csv', content: piece.content }), piece.lineShift);
 */
export function taskFilePieces(format: 'jsonl' | 'csv', content: string, maxBytes = TASK_IMPORT_PIECE_BYTES): TaskFilePiece[] {
  if (jsonBytes(content) < maxBytes) return [{ content, lineShift: 0 }];
  const csv = format === 'csv' ? csvRecords(content.replace(/^\uFEFF/, '')) : null;
  if (format === 'csv' && !csv) return [{ content, lineShift: 0 }];
  const units = csv ? csv.records : content.split(/\r?\n/);
  const budget = maxBytes - (csv ? jsonBytes(csv.header) : 0);
  const pieces: TaskFilePiece[] = [];
  for (let start = 0; start < units.length; ) {
    let end = start + 1;
    let bytes = jsonBytes(units[start]);
    for (let size = 0; end < units.length && bytes + (size = jsonBytes(units[end])) < budget; end++) bytes += size;
    const body = units.slice(start, end);
    pieces.push({ content: csv ? csv.header + body.join('') : body.join('\n'), lineShift: start });
    start = end;
  }
  return pieces;
}

/** Adds one piece's import result to the file's, its line numbers shifted back to the file's. */
export function addImportPiece(total: TaskImportResult, piece: TaskImportResult, lineShift: number): TaskImportResult {
  total.imported += piece.imported;
  total.updated += piece.updated;
  total.skipped += piece.skipped;
  if (piece.paths_followed) total.paths_followed = (total.paths_followed ?? 0) + piece.paths_followed;
  total.errors.push(...piece.errors.map((e) => (e.line === undefined ? e : { ...e, line: e.line + lineShift })));
  for (const w of piece.warnings ?? []) if (!total.warnings?.includes(w)) (total.warnings ??= []).push(w);
  return total;
}

/** What the pieces before a refused one imported, to add to its error. */
export function importedBefore(format: 'jsonl' | 'csv', refused: TaskFilePiece, total: TaskImportResult): string {
  return `the file's first ${refused.lineShift} ${format === 'csv' ? 'records' : 'lines'} were imported: ${total.imported} new, ${total.updated} updated; importing the file again updates them rather than adding copies`;
}

/**
 * The column names of a CSV task file's header row (quoted names unquoted, a byte-order mark
 * dropped), for a form that maps them to task fields; null when the text has no complete header.
 *
 * @example
 * csvColumns('"Issue key",Summary\r\nPAY-1,Refunds') // ['Issue key', 'Summary']
 */
export function csvColumns(content: string): string[] | null {
  const text = content.replace(/^\uFEFF/, '');
  const columns: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') field += text[i++];
      else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      columns.push(field.trim());
      field = '';
    } else if (c === '\n' || c === '\r') return [...columns, field.trim()];
    else field += c;
  }
  return null;
}

const utf8 = new TextEncoder();

function jsonBytes(text: string): number {
  return utf8.encode(JSON.stringify(text)).length;
}

/** The header row and the records after it as written (line breaks included); null when a quote is left open or there is no record. */
function csvRecords(text: string): { header: string; records: string[] } | null {
  const ends: number[] = [];
  let quoted = false;
  // RFC 4180: a line break ends a record outside quotes; an escaped quote ("") toggles twice.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) quoted = !quoted;
    else if (c === 10 && !quoted) ends.push(i + 1);
  }
  if (quoted) return null;
  if (!ends.length || ends[ends.length - 1] < text.length) ends.push(text.length);
  if (ends.length < 2) return null;
  return { header: text.slice(0, ends[0]), records: ends.slice(1).map((end, i) => text.slice(ends[i], end)) };
}
