import type { DownloadProgress } from '@sextant/embeddings';

const MB = 1024 * 1024;

/**
 * Reports a model download as readable lines: one per file at every 10 % (or every 8 MB when
 * the size is unknown) and one when it is complete. `write` is the server log, or stderr for the CLI.
 */
export function modelDownloadProgress(model: string, write: (line: string) => void): (p: DownloadProgress) => void {
  const reported = new Map<string, number>();
  return (p) => {
    const size = (n: number) => `${(n / MB).toFixed(1)} MB`;
    if (p.done) return write(`Embedding model ${model}: ${p.file} downloaded (${size(p.loaded)})`);
    const step = p.total ? Math.floor((p.loaded / p.total) * 10) : Math.floor(p.loaded / (8 * MB));
    if (step === (reported.get(p.file) ?? 0)) return;
    reported.set(p.file, step);
    write(`Embedding model ${model}: downloading ${p.file} ${p.total ? `${size(p.loaded)} of ${size(p.total)} (${step * 10} %)` : size(p.loaded)}`);
  };
}
