import * as path from 'node:path';
import { z } from 'zod';
import { DEFAULT_PRIORS_CONFIG, loadPriorsFile, type PriorsConfig } from './priors-file';

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(`${p}://`)), {
      message: `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    });

const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .optional()
  .transform((v) => (v === undefined ? undefined : ['true', '1', 'yes'].includes(v)));

/**
 * Every environment variable Sextant reads, with its default. `loadConfig` is the only
 * place in the code base that touches `process.env`.
 */
export const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  SEXTANT_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  QDRANT_URL: optionalUrl(['http', 'https']),
  QDRANT_API_KEY: z.string().optional(),
  /** Cluster layout of new Qdrant collections (docker/compose.cluster.yml); unset = Qdrant's single-node defaults. */
  QDRANT_SHARDS: z.coerce.number().int().min(1).max(1024).optional(),
  QDRANT_REPLICATION_FACTOR: z.coerce.number().int().min(1).max(16).optional(),
  QDRANT_WRITE_CONSISTENCY: z.coerce.number().int().min(1).max(16).optional(),
  REDIS_URL: optionalUrl(['redis', 'rediss']),
  EMBEDDINGS_PROVIDER: z.enum(['hash', 'openai', 'local']).default('hash'),
  OPENAI_BASE_URL: optionalUrl(['http', 'https']),
  OPENAI_API_KEY: z.string().optional(),
  EMBEDDINGS_MODEL: z.string().min(1).optional(),
  EMBEDDINGS_DIM: z.coerce.number().int().min(8).max(8192).optional(),
  /** local: a directory with the model's files (air-gapped installs); nothing is downloaded. */
  EMBEDDINGS_MODEL_PATH: z.string().trim().min(1).optional(),
  /** local: where models are downloaded from (the hub's layout: <host>/<model>/resolve/main/<file>). */
  EMBEDDINGS_MODEL_HOST: optionalUrl(['http', 'https']),
  /** local: weight precision (the ONNX file): q8 = onnx/model_quantized.onnx. */
  EMBEDDINGS_DTYPE: z.enum(['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4', 'bnb4']).default('q8'),
  EMBEDDINGS_POOLING: z.enum(['cls', 'mean']).optional(),
  /** local: worker threads running the model (each holds a copy); default cores - 1 (1-4). */
  EMBEDDINGS_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  SEXTANT_ALLOWED_ROOTS: z.string().optional(),
  /** Ask: any OpenAI-compatible chat endpoint (unset CHAT_MODEL = Ask disabled). */
  CHAT_BASE_URL: optionalUrl(['http', 'https']),
  CHAT_MODEL: z.string().trim().min(1).optional(),
  CHAT_API_KEY: z.string().optional(),
  /** How long the chat endpoint may stay silent (before its first byte, or between streamed chunks). */
  CHAT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600000).default(60000),
  /** Retries of a failed chat request (429 honours Retry-After, 5xx and timeouts back off). */
  CHAT_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /** Hosts (names or addresses) network clones may reach even when they resolve to loopback or private addresses. */
  SEXTANT_CLONE_ALLOWED_HOSTS: z.string().optional(),
  /** Let several workspaces register the same local directory (default: a directory belongs to one workspace). */
  SEXTANT_ALLOW_SHARED_PATHS: boolish,
  SEXTANT_REPO: z.string().optional(),
  SEXTANT_AUTH: z.enum(['auto', 'required']).default('auto'),
  SEXTANT_CORS_ORIGINS: z.string().optional(),
  SEXTANT_RATE_LIMIT: z.coerce.number().int().min(0).default(600),
  SEXTANT_RATE_WINDOW_S: z.coerce.number().int().min(1).max(86400).default(60),
  SEXTANT_BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'must look like 512kb or 2mb')
    .default('1mb'),
  /** `POST /v1/tasks/import` carries a whole JSONL or CSV file (the dashboard's import). */
  SEXTANT_IMPORT_BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'must look like 512kb or 32mb')
    .default('32mb'),
  SEXTANT_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600000).default(10000),
  /** JSON file with the structural-prior table (see priors-file.ts); unset = the built-in table. */
  SEXTANT_PRIORS_FILE: z.string().trim().optional(),
  SEXTANT_MAX_FILE_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  SEXTANT_WATCH: boolish,
  /** MCP endpoint: Host names (any port) or host:port accepted; `*` accepts any. Default: loopback names and HOST. */
  SEXTANT_MCP_ALLOWED_HOSTS: z.string().optional(),
  /** Host names (any port) or host:port the server answers to besides loopback and HOST; `*` accepts any. Checked in local mode, or always once set. */
  SEXTANT_ALLOWED_HOSTS: z.string().optional(),
  /** MCP endpoint: browser origins accepted besides loopback ones and SEXTANT_CORS_ORIGINS; `*` accepts any. */
  SEXTANT_MCP_ALLOWED_ORIGINS: z.string().optional(),
  SEXTANT_MCP_BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'must look like 256kb or 1mb')
    .default('256kb'),
  /** Reranker (`rerank: true` searches): an HTTP rerank endpoint, else the local scorer that needs no model. */
  RERANK_URL: optionalUrl(['http', 'https']),
  RERANK_MODEL: z.string().trim().min(1).optional(),
  RERANK_API_KEY: z.string().optional(),
  /** `tei`: POST {query, texts} -> [{index, score}]; `cohere`: Cohere/Jina/OpenAI-compatible POST {model, query, documents, top_n} -> {results}. */
  RERANK_STYLE: z.enum(['tei', 'cohere']).default('tei'),
  RERANK_TIMEOUT_MS: z.coerce.number().int().min(50).max(120000).default(5000),
  RERANK_THRESHOLD: z.coerce.number().min(0).max(4).default(2.5),
  RERANK_MODE: z.enum(['drop', 'flag']).default('flag'),
  /** Rerank searches that do not say `rerank` (the dashboard, agents that do not know the flag). */
  RERANK_BY_DEFAULT: boolish,
  /** External MCP sources: merged results cap, duplicate cosine threshold, and whether a failing source only degrades the search. */
  SEXTANT_MCP_MAX_MERGED_RESULTS: z.coerce.number().int().min(1).max(200).default(15),
  SEXTANT_MCP_DEDUP: boolish,
  SEXTANT_MCP_DEDUP_THRESHOLD: z.coerce.number().min(0).max(1).default(0.95),
  SEXTANT_MCP_FALLBACK: boolish,
  /** Bytes of file contents fetched through `get_file_contents` per search and source. */
  SEXTANT_MCP_HYDRATE_BYTES: z.coerce.number().int().min(0).max(10_000_000).default(200_000),
  /** AES-256 key (64 hex characters) for MCP source secrets at rest; default: a key file in the data dir. */
  SEXTANT_SECRET_KEY: z.string().trim().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes), e.g. from `openssl rand -hex 32`').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().optional(),
});

export type RawEnv = z.input<typeof envSchema>;

export interface AppConfig {
  http: { port: number; host: string; bodyLimit: string; importBodyLimit: string; corsOrigins: string[]; allowedHosts: string[]; shutdownTimeoutMs: number };
  storage: { dataDir: string; databaseUrl?: string; qdrantUrl?: string; qdrantApiKey?: string; qdrantCluster: { shardNumber?: number; replicationFactor?: number; writeConsistencyFactor?: number }; redisUrl?: string };
  embeddings:
    | { provider: 'hash'; model: string; dimensions: number }
    | { provider: 'openai'; model: string; dimensions?: number; baseURL?: string; apiKey?: string }
    | { provider: 'local'; model: string; dimensions?: number; modelPath?: string; modelHost?: string; modelCacheDir: string; dtype: 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4' | 'bnb4'; pooling?: 'cls' | 'mean'; workers?: number };
  indexing: { allowedRoots: string[]; defaultRepo?: string; maxFileBytes: number; watchDefault: boolean; cloneAllowedHosts: string[]; allowSharedPaths: boolean };
  auth: { mode: 'auto' | 'required' };
  /** `POST /mcp`: DNS-rebinding protection (Host/Origin allow-lists) and the request body limit. */
  mcp: { allowedHosts: string[]; allowedOrigins: string[]; bodyLimitBytes: number };
  /** Requests per window per API key (per client IP when unauthenticated); `limit` 0 disables. */
  rateLimit: { limit: number; windowS: number };
  log: { level: string; toStderr: boolean };
  /** Search ranking: the structural-prior table applied to every fused result. */
  ranking: { priors: PriorsConfig };
  /** The reranker used by `rerank: true` searches (HTTP when `url` is set, else local). */
  rerank: { url?: string; model?: string; apiKey?: string; style: 'tei' | 'cohere'; timeoutMs: number; threshold: number; mode: 'drop' | 'flag'; byDefault: boolean };
  /** External MCP sources fused into search (seed 002's merge settings). */
  externalSources: { maxMergedResults: number; dedup: boolean; dedupThreshold: number; fallback: boolean; hydrateBytes: number; childPath?: string; secretKey?: string };
  /** Ask's chat endpoint; `model` null = Ask disabled. */
  chat: { model: string | null; baseURL?: string; apiKey?: string; timeoutMs: number; maxRetries: number };
}

/** Raised when the environment is invalid; the message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: Array<{ variable: string; message: string }>) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p.variable}: ${p.message}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Validates the environment once and returns typed slices.
 *
 * @example
 * const config = loadConfig(process.env);
 * config.storage.dataDir; // absolute path
 */
export function loadConfig(env: Record<string, string | undefined>, cwd = process.cwd()): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => ({ variable: String(i.path[0] ?? '(env)'), message: i.message })));
  }
  const e = parsed.data;
  const problems: Array<{ variable: string; message: string }> = [];
  if (e.EMBEDDINGS_PROVIDER === 'openai' && !e.OPENAI_BASE_URL && !e.OPENAI_API_KEY) {
    problems.push({ variable: 'OPENAI_API_KEY', message: 'is required when EMBEDDINGS_PROVIDER=openai (or set OPENAI_BASE_URL for a local server)' });
  }
  if (e.CHAT_MODEL && !e.CHAT_BASE_URL && !e.CHAT_API_KEY) {
    problems.push({ variable: 'CHAT_API_KEY', message: 'is required when CHAT_MODEL is set (or set CHAT_BASE_URL for a local server such as Ollama, vLLM or LM Studio)' });
  }
  if ((e.CHAT_BASE_URL || e.CHAT_API_KEY) && !e.CHAT_MODEL) {
    problems.push({ variable: 'CHAT_MODEL', message: 'is required when CHAT_BASE_URL or CHAT_API_KEY is set (the model name the endpoint serves)' });
  }
  if (e.EMBEDDINGS_PROVIDER === 'hash' && e.EMBEDDINGS_MODEL && e.EMBEDDINGS_MODEL !== 'hash') {
    problems.push({ variable: 'EMBEDDINGS_MODEL', message: 'only applies to EMBEDDINGS_PROVIDER=openai or local' });
  }
  if (e.EMBEDDINGS_PROVIDER !== 'local' && (e.EMBEDDINGS_MODEL_PATH || e.EMBEDDINGS_MODEL_HOST)) {
    problems.push({ variable: e.EMBEDDINGS_MODEL_PATH ? 'EMBEDDINGS_MODEL_PATH' : 'EMBEDDINGS_MODEL_HOST', message: 'only applies to EMBEDDINGS_PROVIDER=local' });
  }
  if (e.QDRANT_WRITE_CONSISTENCY !== undefined && e.QDRANT_WRITE_CONSISTENCY > (e.QDRANT_REPLICATION_FACTOR ?? 1)) {
    problems.push({ variable: 'QDRANT_WRITE_CONSISTENCY', message: `must not exceed QDRANT_REPLICATION_FACTOR (${e.QDRANT_REPLICATION_FACTOR ?? 1})` });
  }
  let priors = DEFAULT_PRIORS_CONFIG;
  if (e.SEXTANT_PRIORS_FILE) {
    try {
      priors = loadPriorsFile(path.resolve(cwd, e.SEXTANT_PRIORS_FILE));
    } catch (err) {
      problems.push({ variable: 'SEXTANT_PRIORS_FILE', message: (err as Error).message });
    }
  }
  if (problems.length) throw new ConfigError(problems);

  const splitList = (v?: string) =>
    (v ?? '')
      .split(/[,\n]/)
      .map((s) => s.trim())
      .filter(Boolean);

  return {
    http: {
      port: e.PORT,
      host: e.HOST,
      bodyLimit: e.SEXTANT_BODY_LIMIT.toLowerCase(),
      importBodyLimit: e.SEXTANT_IMPORT_BODY_LIMIT.toLowerCase(),
      corsOrigins: splitList(e.SEXTANT_CORS_ORIGINS),
      allowedHosts: splitList(e.SEXTANT_ALLOWED_HOSTS),
      shutdownTimeoutMs: e.SEXTANT_SHUTDOWN_TIMEOUT_MS,
    },
    storage: {
      dataDir: path.resolve(cwd, e.SEXTANT_DATA_DIR),
      databaseUrl: e.DATABASE_URL,
      qdrantUrl: e.QDRANT_URL,
      qdrantApiKey: e.QDRANT_API_KEY,
      qdrantCluster: {
        shardNumber: e.QDRANT_SHARDS,
        replicationFactor: e.QDRANT_REPLICATION_FACTOR,
        writeConsistencyFactor: e.QDRANT_WRITE_CONSISTENCY,
      },
      redisUrl: e.REDIS_URL,
    },
    embeddings:
      e.EMBEDDINGS_PROVIDER === 'hash'
        ? { provider: 'hash', model: 'hash', dimensions: e.EMBEDDINGS_DIM ?? 384 }
        : e.EMBEDDINGS_PROVIDER === 'local'
          ? {
              provider: 'local',
              model: e.EMBEDDINGS_MODEL ?? (e.EMBEDDINGS_MODEL_PATH ? path.basename(path.resolve(cwd, e.EMBEDDINGS_MODEL_PATH)) : 'Xenova/bge-small-en-v1.5'),
              dimensions: e.EMBEDDINGS_DIM,
              modelPath: e.EMBEDDINGS_MODEL_PATH ? path.resolve(cwd, e.EMBEDDINGS_MODEL_PATH) : undefined,
              modelHost: e.EMBEDDINGS_MODEL_HOST,
              modelCacheDir: path.join(path.resolve(cwd, e.SEXTANT_DATA_DIR), 'models'),
              dtype: e.EMBEDDINGS_DTYPE,
              pooling: e.EMBEDDINGS_POOLING,
              workers: e.EMBEDDINGS_THREADS,
            }
          : {
            provider: 'openai',
            model: e.EMBEDDINGS_MODEL ?? 'text-embedding-3-small',
            dimensions: e.EMBEDDINGS_DIM,
            baseURL: e.OPENAI_BASE_URL,
            apiKey: e.OPENAI_API_KEY,
          },
    indexing: {
      allowedRoots: (splitList(e.SEXTANT_ALLOWED_ROOTS).length ? splitList(e.SEXTANT_ALLOWED_ROOTS) : [cwd]).map((r) => path.resolve(cwd, r)),
      defaultRepo: e.SEXTANT_REPO ? path.resolve(cwd, e.SEXTANT_REPO) : undefined,
      maxFileBytes: e.SEXTANT_MAX_FILE_BYTES,
      watchDefault: e.SEXTANT_WATCH ?? false,
      cloneAllowedHosts: splitList(e.SEXTANT_CLONE_ALLOWED_HOSTS).map((h) => h.toLowerCase()),
      allowSharedPaths: e.SEXTANT_ALLOW_SHARED_PATHS ?? false,
    },
    auth: { mode: e.SEXTANT_AUTH },
    mcp: {
      allowedHosts: splitList(e.SEXTANT_MCP_ALLOWED_HOSTS),
      allowedOrigins: [...splitList(e.SEXTANT_CORS_ORIGINS), ...splitList(e.SEXTANT_MCP_ALLOWED_ORIGINS)],
      bodyLimitBytes: byteSize(e.SEXTANT_MCP_BODY_LIMIT),
    },
    rateLimit: { limit: e.SEXTANT_RATE_LIMIT, windowS: e.SEXTANT_RATE_WINDOW_S },
    log: { level: e.LOG_LEVEL, toStderr: false },
    ranking: { priors },
    rerank: { url: e.RERANK_URL, model: e.RERANK_MODEL, apiKey: e.RERANK_API_KEY, style: e.RERANK_STYLE, timeoutMs: e.RERANK_TIMEOUT_MS, threshold: e.RERANK_THRESHOLD, mode: e.RERANK_MODE, byDefault: e.RERANK_BY_DEFAULT ?? false },
    externalSources: {
      maxMergedResults: e.SEXTANT_MCP_MAX_MERGED_RESULTS,
      dedup: e.SEXTANT_MCP_DEDUP ?? true,
      dedupThreshold: e.SEXTANT_MCP_DEDUP_THRESHOLD,
      fallback: e.SEXTANT_MCP_FALLBACK ?? true,
      hydrateBytes: e.SEXTANT_MCP_HYDRATE_BYTES,
      /** stdio MCP servers get PATH (to find their command) and nothing else of this environment. */
      childPath: env.PATH,
      secretKey: e.SEXTANT_SECRET_KEY,
    },
    chat: { model: e.CHAT_MODEL ?? null, baseURL: e.CHAT_BASE_URL, apiKey: e.CHAT_API_KEY, timeoutMs: e.CHAT_TIMEOUT_MS, maxRetries: e.CHAT_MAX_RETRIES },
  };
}

/** `512kb` -> 524288. */
function byteSize(v: string): number {
  const m = /^(\d+)(b|kb|mb)$/i.exec(v)!;
  return Number(m[1]) * { b: 1, kb: 1024, mb: 1024 * 1024 }[m[2].toLowerCase() as 'b' | 'kb' | 'mb'];
}
