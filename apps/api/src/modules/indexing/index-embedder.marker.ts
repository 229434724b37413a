import * as fs from 'node:fs';
import * as path from 'node:path';

/** Which embedder built the vectors of a data dir's index (the embedder id, e.g. `local:Xenova/bge-small-en-v1.5:q8:384`). */
export const INDEX_EMBEDDER_FILE = 'index-embedder.json';

export function readIndexEmbedder(dataDir: string): string | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(dataDir, INDEX_EMBEDDER_FILE), 'utf8')) as { id?: unknown };
    return typeof parsed.id === 'string' ? parsed.id : null;
  } catch {
    return null;
  }
}

export function writeIndexEmbedder(dataDir: string, id: string): void {
  const file = path.join(dataDir, INDEX_EMBEDDER_FILE);
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify({ id, since: new Date().toISOString() })}\n`, { mode: 0o600 });
  fs.renameSync(`${file}.tmp`, file);
}
