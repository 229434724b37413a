import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Makes the data directory private to the server's user before anything is written there:
 * the directory is created (or tightened to) 0700, files already in it (SQLite database,
 * vector store, WAL files) to 0600, and the process umask becomes 077 so every file and
 * clone created later is private too. Code, tasks and API key hashes live here.
 */
export function secureDataDir(dataDir: string): void {
  try {
    process.umask(0o077);
  } catch {
    // Worker threads cannot change the umask; the chmods below still apply.
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  tighten(dataDir, 0o700);
  for (const entry of fs.readdirSync(dataDir, { withFileTypes: true })) {
    const full = path.join(dataDir, entry.name);
    if (entry.isFile()) tighten(full, 0o600);
    else if (entry.isDirectory()) tighten(full, 0o700);
  }
}

function tighten(target: string, mode: number): void {
  try {
    const st = fs.statSync(target);
    // Only our own files: a shared or root-owned path is the operator's choice.
    if ((st.mode & 0o777) !== mode && (typeof process.getuid !== 'function' || st.uid === process.getuid())) fs.chmodSync(target, mode);
  } catch {
    // Vanished meanwhile (a WAL file): nothing to protect.
  }
}
