/**
 * Throughput of EMBEDDINGS_PROVIDER=local (Transformers.js + onnxruntime-node on worker threads).
 *   npm run bench:local-embed -- --json [--model-path DIR] [--texts N (2000)] [--workers W (1)] [--batch B (16)]
 * Without --model-path it runs the tiny generated test model (a Gather over a 23-token
 * vocabulary): that measures the pipeline around the model (tokenizer, worker round trips,
 * ONNX session calls, pooling, normalisation), not a real network. Point --model-path at a
 * downloaded Xenova/bge-small-en-v1.5 to measure the real thing. Each worker runs onnxruntime with
 * one intra-op thread, so texts/s per worker is texts/s per core.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import * as path from 'node:path';
import { LocalEmbedder } from '@sextant/embeddings';
import { writeTinyModel } from '../libs/embeddings/src/local/__tests__/tiny-model.fixture';

const args = process.argv.slice(2).filter((a) => a !== '--');
const value = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const json = args.includes('--json');
const count = Number(value('--texts') ?? 2000);
const workers = Number(value('--workers') ?? 1);
const batchSize = Number(value('--batch') ?? 16);

/** Code-like chunks of ~120 words (what the indexer embeds), varied so no two are equal. */
function chunk(i: number): string {
  const words = ['session', 'refresh', 'token', 'expire', 'user', 'login', 'invoice', 'ledger', 'balance', 'payment', 'the', 'of', 'is', 'export', 'function', 'return', 'const'];
  return Array.from({ length: 120 }, (_, k) => words[(i * 7 + k * 3) % words.length] + (k % 11 === 0 ? String(i) : '')).join(' ');
}

async function main() {
  const tmp = mkdtempSync(path.join(tmpdir(), 'sextant-bench-embed-'));
  const modelPath = value('--model-path') ?? path.join(tmp, 'tiny-bert');
  if (!value('--model-path')) writeTinyModel(modelPath);
  const embedder = new LocalEmbedder({ modelPath, cacheDir: tmp, workers, batchSize });
  const texts = Array.from({ length: count }, (_, i) => chunk(i));
  try {
    // Warm-up: loads the model in every worker.
    await embedder.embedDocuments(texts.slice(0, batchSize * workers));
    const started = performance.now();
    await embedder.embedDocuments(texts);
    const seconds = (performance.now() - started) / 1000;
    const q0 = performance.now();
    const queries = 200;
    for (let i = 0; i < queries; i++) await embedder.embedQuery(`refresh the user session ${i}`);
    const queryMs = (performance.now() - q0) / queries;
    const result = {
      bench: 'local-embed',
      model: embedder.id,
      tinyTestModel: !value('--model-path'),
      texts: count,
      wordsPerText: 120,
      workers,
      batchSize,
      cores: availableParallelism(),
      textsPerSecond: Math.round(count / seconds),
      textsPerSecondPerCore: Math.round(count / seconds / Math.min(workers, availableParallelism())),
      queryLatencyMs: Math.round(queryMs * 100) / 100,
    };
    if (!json) console.log(`${result.model}: ${result.textsPerSecond} texts/s with ${workers} worker(s) (${result.textsPerSecondPerCore}/s per core), query ${result.queryLatencyMs} ms`);
    console.log(JSON.stringify(result));
  } finally {
    await embedder.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

void main();
