/**
 * Measures HashEmbedder throughput on ~1.5 KB chunks of real TypeScript/JavaScript from
 * node_modules, single-threaded. Run after a build:
 *   npx tsc -b tsconfig.build.json && node -r @swc-node/register libs/embeddings/scripts/hash-throughput.ts
 * The last line is one JSON object.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HashEmbedder } from '@sextant/embeddings';

const CHUNK_CHARS = 1500;
const MAX_CHUNKS = 4000;
const ROUNDS = 5;

function loadChunks(): string[] {
  const chunks: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (chunks.length >= MAX_CHUNKS) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|js)$/.test(entry.name)) {
        const source = readFileSync(path, 'utf8');
        for (let i = 0; i + CHUNK_CHARS <= source.length && chunks.length < MAX_CHUNKS; i += CHUNK_CHARS) chunks.push(source.slice(i, i + CHUNK_CHARS));
      }
    }
  };
  for (const dir of ['node_modules/openai/src', 'node_modules/typeorm', 'node_modules/@nestjs/core']) walk(join(process.cwd(), dir));
  return chunks;
}

const chunks = loadChunks();
const embedder = new HashEmbedder();
for (const chunk of chunks) embedder.embed(chunk); // warm-up (JIT)
const started = performance.now();
for (let r = 0; r < ROUNDS; r++) for (const chunk of chunks) embedder.embed(chunk);
const seconds = (performance.now() - started) / 1000;
const chunksPerSec = Math.round((chunks.length * ROUNDS) / seconds);
console.log(`${embedder.id}: ${chunksPerSec} chunks/s of ${CHUNK_CHARS} chars on one core (${chunks.length} chunks x ${ROUNDS})`);
console.log(JSON.stringify({ embedder: embedder.id, chunkChars: CHUNK_CHARS, chunks: chunks.length * ROUNDS, chunksPerSec, mbPerSec: +((chunksPerSec * CHUNK_CHARS) / 1e6).toFixed(1) }));
