import { readFileSync } from 'node:fs';

/** A file the CLI was given that is not text it can read (not UTF-8 or UTF-16 with its mark). */
export class TextFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TextFileError';
  }
}

/**
 * A text file's content: UTF-8 (a byte-order mark is dropped), or UTF-16 when it starts with
 * its mark (what Excel's "Unicode text" and Windows PowerShell write). Anything else, such as a
 * CSV saved in a legacy code page, is refused with the line of its first unreadable byte, so its
 * text is never stored with replacement characters in it.
 *
 * @example
 * readTextFile('tickets.csv') // 'id,title\n…'
 * readTextFile(0) // standard input
 */
export function readTextFile(file: string | 0, label = file === 0 ? 'standard input' : file): string {
  const bytes = readFileSync(file);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const text = new TextDecoder('utf-8').decode(bytes);
    const line = text.slice(0, text.indexOf('\uFFFD')).split('\n').length;
    throw new TextFileError(`${label} is not UTF-8 text (line ${line} has a byte that is not): save it as UTF-8 (in Excel: "CSV UTF-8")`);
  }
}
