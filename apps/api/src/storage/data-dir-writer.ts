import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Who writes to a data dir: a running server (which others then go through), a CLI command or a stdio MCP session. */
export interface DataDirWriter {
  pid: number;
  hostname: string;
  role: 'server' | 'cli' | 'mcp';
  /** What it is doing, for the message others get (`sextant index /repo`). */
  command: string;
  started_at: string;
  /** A server's base URL, once it listens. */
  url?: string;
  /** A server's operator token: CLI commands and stdio MCP on this machine act through the server with it. */
  token?: string;
}

/** Another live process writes to this data dir. */
export class DataDirBusyError extends Error {
  constructor(readonly holder: DataDirWriter) {
    super(
      holder.role === 'server'
        ? `the Sextant server (pid ${holder.pid}, since ${holder.started_at}) uses this data dir${holder.url ? ` at ${holder.url}` : ' and is still starting'}; stop it first, or do this through its API.`
        : `another Sextant process writes to this data dir: \`${holder.command}\` (pid ${holder.pid}, since ${holder.started_at}). Wait for it to finish, or stop it, then run this again.`,
    );
    this.name = 'DataDirBusyError';
  }
}

const WRITER_FILE = 'writer.json';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

/**
 * The live writer of `dataDir`, or null. A writer file left by a process that died (kill -9,
 * power loss) names a dead pid and counts as free: nothing needs cleaning up by hand.
 */
export function currentWriter(dataDir: string): DataDirWriter | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dataDir, WRITER_FILE), 'utf8');
  } catch {
    return null;
  }
  let holder: DataDirWriter;
  try {
    holder = JSON.parse(text) as DataDirWriter;
  } catch {
    return null; // torn write of a crashed process; a live writer's file is always whole (renamed into place)
  }
  if (holder.hostname !== os.hostname()) return holder; // another machine on a shared volume: cannot check, assume live
  return alive(holder.pid) ? holder : null;
}

/** A held data dir: update what others see (a server's URL) and release it. */
export interface DataDirLease {
  readonly info: DataDirWriter;
  update(patch: Partial<Pick<DataDirWriter, 'url'>>): void;
  release(): void;
}

/**
 * Makes this process the only writer of `dataDir`, or throws {@link DataDirBusyError} naming
 * the live one. The claim is a file created exclusively (`wx`) in the data dir and removed on
 * exit; a dead holder's file is taken over. Servers get an operator token in it (the file is
 * 0600 in a 0700 directory, so only the same user can read it).
 *
 * @example
 * const lease = acquireDataDir(config.storage.dataDir, { role: 'cli', command: 'sextant index .' });
 * try { ... } finally { lease.release(); }
 */
export function acquireDataDir(dataDir: string, claim: { role: DataDirWriter['role']; command: string }): DataDirLease {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, WRITER_FILE);
  const info: DataDirWriter = {
    pid: process.pid,
    hostname: os.hostname(),
    role: claim.role,
    command: claim.command,
    started_at: new Date().toISOString(),
    ...(claim.role === 'server' ? { token: `sxo_${randomBytes(24).toString('hex')}` } : {}),
  };
  const write = (target: string, flag: 'wx' | 'w') => fs.writeFileSync(target, JSON.stringify(info), { flag, mode: 0o600 });
  // Created whole: the content goes to a file of our own, which is then hard-linked into place (a
  // link fails with EEXIST like `wx`). Writing the claim in place left a moment in which another
  // process read an empty file and took the data dir for free.
  const claimWhole = () => {
    const tmp = `${file}.${process.pid}.claim`;
    write(tmp, 'w');
    try {
      fs.linkSync(tmp, file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw err;
      write(file, 'wx'); // a file system without hard links
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      claimWhole();
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        try {
          if ((JSON.parse(fs.readFileSync(file, 'utf8')) as DataDirWriter).pid === process.pid) fs.unlinkSync(file);
        } catch {
          // already gone
        }
      };
      process.on('exit', release);
      return {
        info,
        update: (patch) => {
          Object.assign(info, patch);
          const tmp = `${file}.${process.pid}.tmp`;
          write(tmp, 'w');
          fs.renameSync(tmp, file);
        },
        release,
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = currentWriter(dataDir);
      if (holder) throw new DataDirBusyError(holder);
      // The holder died without cleaning up: take its place (another taker may race us; `wx` decides).
      fs.rmSync(file, { force: true });
    }
  }
  const holder = currentWriter(dataDir);
  throw holder ? new DataDirBusyError(holder) : new Error(`could not claim ${file}`);
}
