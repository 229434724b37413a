/**
 * Deterministic, code-like corpus shared by the search and MCP benchmarks, so both search
 * the same kind of code: Zipf-distributed identifiers, one class + functions per file.
 */
import { randomUUID } from 'node:crypto';
import type { ChunkIndex, ChunkPoint } from '@sextant/retrieval';

export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const WORDS = (
  'get set user id name list item index value key map file path read write open close parse render http request response ' +
  'client server query build table row column config option error handler event emit listen socket token auth session cache store ' +
  'load save update delete create insert select filter sort merge split join format encode decode buffer stream chunk node tree ' +
  'graph edge vertex search rank score weight vector embed model train batch size count total sum avg min max range start end ' +
  'begin finish init reset clear flush sync async await promise resolve reject timeout retry backoff queue job worker task ' +
  'schedule cron log debug info warn trace span metric gauge counter histogram label tag version commit branch diff patch ' +
  'repo workspace project module package import export default public private static abstract interface struct enum ' +
  'validate schema field record entity migration transaction connection pool driver dialect sqlite postgres redis ' +
  'cookie header body status redirect proxy agent upload download progress cancel abort signal hook plugin middleware router'
).split(' ');
export const zipf = (r: () => number) => WORDS[Math.floor(WORDS.length * r() * r())];
export const cap = (w: string) => w[0].toUpperCase() + w.slice(1);

export function identifier(r: () => number, parts = 1 + Math.floor(r() * 3)): string {
  const ws = Array.from({ length: parts }, () => zipf(r));
  return r() < 0.25 ? ws.join('_') : ws.map((w, j) => (j === 0 ? w : cap(w))).join('');
}

export interface FileSpec {
  path: string;
  symbols: string[];
}

/** Deterministic files: path + the symbol of each of its chunks. */
export function fileSpec(f: number, chunksPerFile: number): FileSpec {
  const r = rng(104_729 * (f + 1));
  const path = `packages/${zipf(r)}-${f % 23}/src/${zipf(r)}/${identifier(r, 2)}-${f}.ts`;
  const symbols = Array.from({ length: chunksPerFile }, (_, c) => (c === 0 ? cap(identifier(r, 2)) : identifier(r, 2 + Math.floor(r() * 2))));
  return { path, symbols };
}

/** The source text of chunk `c` (0 = the class) with the given symbol. */
export function chunkText(c: number, symbol: string, r: () => number): string {
  const lines: string[] = [];
  lines.push(`/** ${cap(zipf(r))} the ${zipf(r)} ${zipf(r)} for the ${zipf(r)} ${zipf(r)}. */`);
  lines.push(c === 0 ? `export class ${symbol} extends ${cap(identifier(r))} {` : `export async function ${symbol}(${identifier(r)}: ${cap(identifier(r))}, ${identifier(r)} = ${Math.floor(r() * 100)}) {`);
  const body = 4 + Math.floor(r() * 10);
  for (let l = 0; l < body; l++) {
    const kind = r();
    if (kind < 0.4) lines.push(`  const ${identifier(r)} = await ${identifier(r)}.${identifier(r)}(${identifier(r)}, '${zipf(r)}');`);
    else if (kind < 0.6) lines.push(`  if (!${identifier(r)}) throw new ${cap(identifier(r))}Error('${zipf(r)} ${zipf(r)} ${zipf(r)}');`);
    else if (kind < 0.8) lines.push(`  // ${zipf(r)} ${zipf(r)} ${zipf(r)} before ${zipf(r)} ${zipf(r)}`);
    else lines.push(`  this.${identifier(r)} = ${identifier(r)}(${identifier(r)}.${zipf(r)}, ${Math.floor(r() * 1000)});`);
  }
  lines.push(`  return ${identifier(r)};`, '}');
  return lines.join('\n');
}

/**
 * Writes `chunks` chunk points of the corpus (`chunksPerFile` per file) into a chunk index,
 * shaped as the indexer writes them (0-indexed lines, qualified symbol, keyword text of path +
 * symbol + content), embedding in batches of 1,000. Returns the files and the time spent embedding.
 */
export async function writeCorpusChunks(
  index: ChunkIndex,
  embedDocuments: (texts: string[]) => Promise<Float32Array[] | number[][]>,
  opts: { chunks: number; chunksPerFile: number; workspaceId: string; repoId: string },
): Promise<{ files: FileSpec[]; written: number; embedMs: number }> {
  const files: FileSpec[] = [];
  let embedMs = 0;
  let written = 0;
  let batch: Array<Omit<ChunkPoint, 'vector'>> = [];
  const flush = async () => {
    const t = performance.now();
    const vectors = await embedDocuments(batch.map((p) => p.text));
    embedMs += performance.now() - t;
    await index.upsert(batch.map((p, i) => ({ ...p, vector: vectors[i] })));
    batch = [];
  };
  for (let f = 0; written < opts.chunks; f++) {
    const spec = fileSpec(f, opts.chunksPerFile);
    files.push(spec);
    const r = rng(7_919 * (f + 1));
    let line = 0;
    let byte = 0;
    for (let c = 0; c < opts.chunksPerFile && written < opts.chunks; c++, written++) {
      const text = chunkText(c, spec.symbols[c], r);
      const lines = text.split('\n').length;
      const symbol = c === 0 ? spec.symbols[0] : `${spec.symbols[0]}.${spec.symbols[c]}`;
      batch.push({
        id: randomUUID(),
        text: `${spec.path}\n${symbol}\n${text}`,
        payload: {
          workspaceId: opts.workspaceId, repoId: opts.repoId, path: spec.path, lang: 'typescript', chunkType: c === 0 ? 'class' : c % 3 === 0 ? 'method' : 'function',
          name: spec.symbols[c], symbol, symbols: [symbol], parentId: null, signature: text.split('\n')[1],
          startLine: line, endLine: line + lines - 1, startByte: byte, endByte: byte + text.length, contentHash: `${f}:${c}`, content: text,
        },
      });
      line += lines + 1;
      byte += text.length + 1;
      if (batch.length === 1000) await flush();
    }
  }
  if (batch.length) await flush();
  return { files, written, embedMs };
}

/** Linear-interpolated percentile, 2 decimals. */
export function pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const idx = ((s.length - 1) * p) / 100;
  const lo = Math.floor(idx);
  const hi = Math.ceil(idx);
  return +(s[lo] + (s[hi] - s[lo]) * (idx - lo)).toFixed(2);
}
