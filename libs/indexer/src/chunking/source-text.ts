/**
 * Precomputed views of a file's text so chunk sizes, line numbers and UTF-8
 * offsets are O(1)/O(log n) lookups instead of rescans.
 */
export class SourceText {
  readonly text: string;
  /** nonWs[i] = number of non-whitespace chars in text[0, i). */
  private readonly nonWs: Uint32Array;
  /** Char index of the start of each line. */
  readonly lineStarts: number[];
  private byteOffsets: Uint32Array | null | undefined;

  constructor(text: string) {
    this.text = text;
    const n = text.length;
    const nonWs = new Uint32Array(n + 1);
    const lineStarts = [0];
    let count = 0;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) lineStarts.push(i + 1);
      else if (c !== 32 && c !== 9 && c !== 13 && c !== 12 && c !== 11 && c !== 0xa0 && c !== 0xfeff) count++;
      nonWs[i + 1] = count;
    }
    this.nonWs = nonWs;
    this.lineStarts = lineStarts;
  }

  get length(): number {
    return this.text.length;
  }

  /** Non-whitespace characters in [start, end). */
  size(start: number, end: number): number {
    if (end <= start) return 0;
    return this.nonWs[end] - this.nonWs[start];
  }

  lineOf(index: number): number {
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** End (exclusive) of the line containing `index`, without the newline. */
  lineEnd(line: number): number {
    const next = this.lineStarts[line + 1];
    return next === undefined ? this.text.length : next - 1;
  }

  byteOffset(index: number): number {
    if (this.byteOffsets === undefined) this.byteOffsets = computeByteOffsets(this.text);
    return this.byteOffsets === null ? index : this.byteOffsets[index];
  }
}

function computeByteOffsets(text: string): Uint32Array | null {
  if (Buffer.byteLength(text, 'utf8') === text.length) return null;
  const offsets = new Uint32Array(text.length + 1);
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    offsets[i] = bytes;
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      // A surrogate pair is 4 UTF-8 bytes, counted on the high half.
      bytes += 4;
      offsets[++i] = bytes;
      continue;
    } else bytes += 3;
  }
  offsets[text.length] = bytes;
  return offsets;
}
