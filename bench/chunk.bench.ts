/**
 * Chunking throughput vs raw tree-sitter parse throughput.
 *   npm run bench:chunk -- --json [--path DIR] [--files N] [--rounds R (5)]
 * Without --path a corpus of typical ~4 KB files (TS, Python, Go, Java, Rust) is generated in os.tmpdir().
 * chunkToParseRatio = chunking MB/s over all files read ÷ parse-only MB/s over the parsed ones;
 * parsedChunkToParseRatio times chunking on the parsed files alone (same bytes on both sides).
 * indexing* is the same run with the options the API's index jobs use (`references: true`: the
 * code graph keeps call sites).
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { chunkFile, discoverFiles, isParsedLanguage, ParsePool, parseFile, readSourceFile, type Language } from '@sextant/indexer';

const args = process.argv.slice(2).filter((a) => a !== '--');
const flag = (name: string) => args.includes(name);
const value = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

function tsFile(i: number): string {
  let out = `import { Repository } from '../db/repository';\nimport { Logger } from '../log';\n\n`;
  for (let k = 0; out.length < 3600; k++) {
    out += `/** Handles orders for region ${i}-${k}. */\nexport class OrderService${k} {\n  constructor(private readonly repo: Repository, private readonly log: Logger) {}\n\n  async place(customerId: string, items: { sku: string; qty: number }[]): Promise<string> {\n    if (items.length === 0) {\n      throw new Error('empty order');\n    }\n    const total = items.reduce((sum, item) => sum + item.qty, 0);\n    this.log.info(\`placing \${total} items for \${customerId}\`);\n    return this.repo.insert({ customerId, items, total });\n  }\n}\n\n`;
  }
  return out;
}

function pyFile(i: number): string {
  let out = `"""Billing helpers ${i}."""\nimport logging\nfrom decimal import Decimal\n\nlog = logging.getLogger(__name__)\n\n`;
  for (let k = 0; out.length < 3600; k++) {
    out += `class Invoice${k}:\n    """An invoice."""\n\n    def __init__(self, lines):\n        self.lines = lines\n\n    def total(self) -> Decimal:\n        result = Decimal(0)\n        for line in self.lines:\n            result += Decimal(line.amount) * line.qty\n        log.debug("total %s", result)\n        return result\n\n\ndef send_${k}(invoice):\n    if not invoice.lines:\n        raise ValueError("empty")\n    return invoice.total()\n\n\n`;
  }
  return out;
}

function goFile(i: number): string {
  let out = `package store${i}\n\nimport (\n\t"fmt"\n\t"sync"\n)\n\n`;
  for (let k = 0; out.length < 3600; k++) {
    out += `// Cache${k} keeps values.\ntype Cache${k} struct {\n\tmu    sync.Mutex\n\titems map[string]int\n}\n\n// Put stores a value.\nfunc (c *Cache${k}) Put(key string, v int) error {\n\tc.mu.Lock()\n\tdefer c.mu.Unlock()\n\tif key == "" {\n\t\treturn fmt.Errorf("empty key")\n\t}\n\tc.items[key] = v\n\treturn nil\n}\n\n`;
  }
  return out;
}

function javaFile(i: number): string {
  let out = `package app.p${i};\n\nimport java.util.List;\nimport java.util.Optional;\n\npublic class Users${i} {\n`;
  for (let k = 0; out.length < 3500; k++) {
    out += `    /** Find a user. */\n    public Optional<String> find${k}(List<String> users, String name) {\n        for (String u : users) {\n            if (u.equals(name)) {\n                return Optional.of(u);\n            }\n        }\n        return Optional.empty();\n    }\n\n`;
  }
  return `${out}}\n`;
}

function rustFile(i: number): string {
  let out = `use std::collections::HashMap;\n\n`;
  for (let k = 0; out.length < 3600; k++) {
    out += `/// Counts words.\npub struct Counter${k} {\n    counts: HashMap<String, usize>,\n}\n\nimpl Counter${k} {\n    pub fn add(&mut self, word: &str) -> usize {\n        let n = self.counts.entry(word.to_string()).or_insert(0);\n        *n += ${i};\n        *n\n    }\n}\n\n`;
  }
  return out;
}

function generateCorpus(files: number): string {
  const root = mkdtempSync(path.join(tmpdir(), 'sextant-chunk-bench-'));
  const makers: [string, (i: number) => string][] = [['ts', tsFile], ['py', pyFile], ['go', goFile], ['java', javaFile], ['rs', rustFile]];
  for (let i = 0; i < files; i++) {
    const [ext, make] = makers[i % makers.length];
    const dir = path.join(root, `pkg${i % 40}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `file${i}.${ext}`), make(i));
  }
  return root;
}

interface Job {
  path: string;
  lang: Language | null;
  text: string;
}

const PARSE_WORKER = `
const { parentPort } = require('node:worker_threads');
const Parser = require('tree-sitter');
const grammars = {
  typescript: () => require('tree-sitter-typescript').typescript, tsx: () => require('tree-sitter-typescript').tsx,
  javascript: () => require('tree-sitter-javascript'), python: () => require('tree-sitter-python'),
  go: () => require('tree-sitter-go'), java: () => require('tree-sitter-java'), rust: () => require('tree-sitter-rust'),
};
const parsers = {};
parentPort.on('message', ({ id, lang, text }) => {
  let p = parsers[lang];
  if (!p) { p = parsers[lang] = new Parser(); p.setLanguage(grammars[lang]()); }
  const tree = p.parse(text, undefined, { bufferSize: Math.max(32768, text.length * 2 + 1024) });
  parentPort.postMessage({ id, nodes: tree.rootNode.childCount });
});`;

/**
 * Runs `work` over the jobs with a few files per thread in flight, as `chunkDirectory` and the API's
 * index jobs do. Handed all files at once, the results outlived young-generation collections, and the
 * main thread's garbage collection took about a tenth of a round's time from the workers.
 */
async function inFlight(jobs: Job[], threads: number, work: (job: Job) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(jobs.length, threads * 4) }, async () => {
      while (next < jobs.length) await work(jobs[next++]);
    }),
  );
}

/**
 * Parse-only throughput on the same number of threads the chunking pool uses, with two files in
 * flight per worker like the pool, so neither side is timed waiting on the main thread.
 */
async function parseOnly(jobs: Job[], threads: number): Promise<number> {
  const workers = Array.from({ length: threads }, () => new Worker(PARSE_WORKER, { eval: true }));
  const run = (w: Worker, job: Job, id: number) =>
    new Promise<void>((resolve) => {
      const onMessage = (m: { id: number }) => {
        if (m.id !== id) return;
        w.off('message', onMessage);
        resolve();
      };
      w.on('message', onMessage);
      w.postMessage({ id, lang: job.lang, text: job.text });
    });
  // Warm-up: load grammars in every worker.
  await Promise.all(workers.map((w, i) => Promise.all(jobs.slice(0, 10).map((job, k) => run(w, job, -(i * 100 + k + 1))))));
  const started = performance.now();
  let next = 0;
  await Promise.all(
    workers.flatMap((w) => [w, w]).map(async (w) => {
      while (next < jobs.length) {
        const id = next++;
        await run(w, jobs[id], id);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await Promise.all(workers.map((w) => w.terminate()));
  return elapsed;
}

async function main(): Promise<void> {
  const given = value('--path');
  const fileCount = Number(value('--files') ?? 2000);
  const root = given ? path.resolve(given) : generateCorpus(fileCount);
  const threads = availableParallelism();
  try {
    const t0 = performance.now();
    const discovery = await discoverFiles(root);
    const jobs: Job[] = [];
    for (const file of discovery.files) {
      const read = await readSourceFile(file);
      if (read.ok) jobs.push({ path: file.path, lang: file.lang, text: read.text });
    }
    const discoverReadSeconds = (performance.now() - t0) / 1000;
    const parsed = jobs.filter((j) => isParsedLanguage(j.lang));
    const bytes = jobs.reduce((s, j) => s + Buffer.byteLength(j.text), 0);
    const parsedBytes = parsed.reduce((s, j) => s + Buffer.byteLength(j.text), 0);

    // Other processes share the cores, so parse-only and chunking runs alternate and the best of
    // each is kept; the in-thread CPU-time ratio below is immune to that noise.
    const rounds = Number(value('--rounds') ?? 5);
    const pool = new ParsePool({ size: threads });
    await Promise.all(jobs.slice(0, threads * 5).map((j) => pool.chunk({ workspaceId: 'bench', repoId: 'bench', ...j })));
    let parseSeconds = Infinity;
    let chunkSeconds = Infinity;
    let parsedChunkSeconds = Infinity;
    let indexingChunkSeconds = Infinity;
    let chunks = 0;
    let fallbacks = 0;
    const load = loadavg()[0];
    // Process RSS while the pool chunks (main thread and workers; freed parse-only workers may linger).
    let chunkingRss = 0;
    for (let round = 0; round < rounds; round++) {
      parseSeconds = Math.min(parseSeconds, await parseOnly(parsed, threads));
      let started = performance.now();
      chunks = 0;
      fallbacks = 0;
      const sampler = setInterval(() => (chunkingRss = Math.max(chunkingRss, process.memoryUsage.rss())), 25);
      await inFlight(jobs, threads, async (j) => {
        const r = await pool.chunk({ workspaceId: 'bench', repoId: 'bench', ...j });
        chunks += r.chunks.length;
        if (r.parse === 'fallback') fallbacks++;
      });
      clearInterval(sampler);
      chunkSeconds = Math.min(chunkSeconds, (performance.now() - started) / 1000);
      started = performance.now();
      await inFlight(jobs, threads, (j) => pool.chunk({ workspaceId: 'bench', repoId: 'bench', ...j }, { references: true }));
      indexingChunkSeconds = Math.min(indexingChunkSeconds, (performance.now() - started) / 1000);
      // Only the files parse-only measures: the like-for-like comparison when the corpus also has
      // Markdown and plain text (which chunk without parsing and lift the all-files ratio).
      if (parsed.length < jobs.length) {
        started = performance.now();
        await inFlight(parsed, threads, (j) => pool.chunk({ workspaceId: 'bench', repoId: 'bench', ...j }));
        parsedChunkSeconds = Math.min(parsedChunkSeconds, (performance.now() - started) / 1000);
      }
    }
    if (parsed.length === jobs.length) parsedChunkSeconds = chunkSeconds;
    await pool.close();

    const cpuMs = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
    const sample = parsed.slice(0, 400);
    let parseCpu = Infinity;
    let chunkCpu = Infinity;
    // The main thread has not chunked anything yet: the first rounds time the JIT warming up, as the
    // pool's workers did during their first round.
    for (let round = 0; round < 10; round++) {
      // Lets node-tree-sitter free the last round's trees (their finalizers run as immediates).
      await new Promise((resolve) => setImmediate(resolve));
      let t = cpuMs();
      for (const j of sample) parseFile(j.text, j.lang as Exclude<Language, 'markdown'>);
      parseCpu = Math.min(parseCpu, cpuMs() - t);
      t = cpuMs();
      for (const j of sample) chunkFile({ workspaceId: 'bench', repoId: 'bench', ...j });
      chunkCpu = Math.min(chunkCpu, cpuMs() - t);
    }

    const MB = 1024 * 1024;
    const parseMBps = parsedBytes / MB / parseSeconds;
    const chunkMBps = bytes / MB / chunkSeconds;
    const result = {
      bench: 'chunk',
      corpus: given ? root : `generated:${fileCount}`,
      threads,
      files: jobs.length,
      skipped: discovery.skipped.length,
      mb: +(bytes / MB).toFixed(2),
      chunks,
      fallbacks,
      discoverReadSeconds: +discoverReadSeconds.toFixed(3),
      chunkSeconds: +chunkSeconds.toFixed(3),
      filesPerSec: Math.round(jobs.length / chunkSeconds),
      mbPerSec: +chunkMBps.toFixed(2),
      chunksPerSec: Math.round(chunks / chunkSeconds),
      parseOnlySeconds: +parseSeconds.toFixed(3),
      parseOnlyFilesPerSec: Math.round(parsed.length / parseSeconds),
      parseOnlyMbPerSec: +parseMBps.toFixed(2),
      chunkToParseRatio: +(chunkMBps / parseMBps).toFixed(3),
      indexingChunkSeconds: +indexingChunkSeconds.toFixed(3),
      indexingMbPerSec: +(bytes / MB / indexingChunkSeconds).toFixed(2),
      indexingChunkToParseRatio: +(bytes / MB / indexingChunkSeconds / parseMBps).toFixed(3),
      parsedFiles: parsed.length,
      parsedMb: +(parsedBytes / MB).toFixed(2),
      parsedChunkSeconds: +parsedChunkSeconds.toFixed(3),
      parsedChunkToParseRatio: +(parseSeconds / parsedChunkSeconds).toFixed(3),
      inThreadCpuRatio: +(parseCpu / chunkCpu).toFixed(3),
      inThreadParseCpuMs: Math.round(parseCpu),
      inThreadChunkCpuMs: Math.round(chunkCpu),
      rounds,
      chunkingRssMb: Math.round(chunkingRss / 1024 / 1024),
      // The whole run: parse-only workers and the in-thread loop included.
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      loadAvg1mStart: +load.toFixed(2),
      loadAvg1mEnd: +loadavg()[0].toFixed(2),
    };
    if (load >= threads) Object.assign(result, { note: `the machine was busy when the run started (1-minute load ${load.toFixed(2)} on ${threads} cores): figures may be depressed` });
    if (!flag('--json')) {
      console.log(`chunked ${result.files} files (${result.mb} MB) into ${chunks} chunks in ${result.chunkSeconds}s on ${threads} threads`);
      console.log(`chunking ${result.mbPerSec} MB/s, ${result.filesPerSec} files/s; parse-only ${result.parseOnlyMbPerSec} MB/s; ratio ${result.chunkToParseRatio} (parsed files only: ${result.parsedChunkToParseRatio})`);
    }
    console.log(JSON.stringify(result));
  } finally {
    if (!given) rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
