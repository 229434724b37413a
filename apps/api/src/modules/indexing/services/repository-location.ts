import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitCommandError, runGit, runGitOutside } from '@sextant/indexer';
import { DomainError, DomainErrorCode } from '../../../common/domain-error';

/**
 * Resolves a user-given local path to its real location and checks it lies under one of
 * the allowed roots (both sides through realpath, so symlinks cannot smuggle a path out).
 */
export function resolveAllowedPath(input: string, allowedRoots: string[]): string {
  let real: string;
  try {
    real = fs.realpathSync(path.resolve(input));
  } catch {
    throw new DomainError(DomainErrorCode.InvalidInput, `Path does not exist: ${input}`, { path: input });
  }
  if (!fs.statSync(real).isDirectory()) throw new DomainError(DomainErrorCode.InvalidInput, `Path is not a directory: ${input}`, { path: input });
  const inside = allowedRoots.some((root) => {
    let realRoot: string;
    try {
      realRoot = fs.realpathSync(root);
    } catch {
      return false;
    }
    const rel = path.relative(realRoot, real);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  });
  if (!inside) {
    throw new DomainError(DomainErrorCode.PathNotAllowed, `Path ${input} is outside the allowed roots (${allowedRoots.join(', ')}); set SEXTANT_ALLOWED_ROOTS to allow it`, {
      path: input,
      allowed_roots: allowedRoots,
    });
  }
  return real;
}

const ALLOWED_GIT_URL = /^(https?:\/\/|ssh:\/\/|git:\/\/|file:\/\/|[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:)/;

/** Checks the URL's shape before git sees it (no `ext::` transports, no option injection). */
export function validateGitUrl(url: string): string {
  const trimmed = url.trim();
  if (!ALLOWED_GIT_URL.test(trimmed) || trimmed.startsWith('-') || /\s/.test(trimmed)) {
    throw new DomainError(DomainErrorCode.InvalidInput, `Not a supported git URL: ${url} (use https://, ssh://, git@host:path or file://)`, { git_url: url });
  }
  return trimmed;
}

/** Options for {@link cloneRepository}. */
export interface CloneOptions {
  timeoutMs?: number;
  /** For http(s) URLs: the address the host was checked at; git connects there and nowhere else. */
  pin?: { host: string; port: number; address: string };
  /** Repository-relative paths to delete after checkout (files discovery refuses to read: `.env`, keys). */
  isForbidden?: (relativePath: string) => boolean;
}

/**
 * Clones through the hardened git runner with symlinks checked out as plain files, no
 * submodules and no hooks, so a hostile repository can neither point outside the clone nor
 * run code on our machine; then deletes the files discovery would refuse to read, so
 * secrets a repository carries never sit in the data directory.
 */
export async function cloneRepository(url: string, destination: string, options: CloneOptions = {}): Promise<void> {
  const { timeoutMs = 10 * 60_000, pin, isForbidden } = options;
  fs.mkdirSync(path.dirname(destination), { recursive: true, mode: 0o700 });
  const pinArgs = pin ? ['-c', `http.curloptResolve=${pin.host}:${pin.port}:${pin.address.includes(':') ? `[${pin.address}]` : pin.address}`] : [];
  try {
    // A server that stops sending (or never starts) fails the clone within a minute instead of holding the request for its whole timeout.
    const stallArgs = ['-c', 'http.lowSpeedLimit=1', '-c', 'http.lowSpeedTime=60'];
    await runGitOutside([...pinArgs, ...stallArgs, '-c', 'core.symlinks=false', 'clone', '--quiet', '--no-recurse-submodules', '--template=', '--', url, destination], { timeoutMs, maxBuffer: 16 * 1024 * 1024 });
    // Keep the settings for later fetches too.
    await runGit(destination, ['config', 'core.symlinks', 'false']);
    await runGit(destination, ['config', 'core.hooksPath', '/dev/null']);
    if (isForbidden) removeForbiddenFiles(destination, isForbidden);
  } catch (err) {
    fs.rmSync(destination, { recursive: true, force: true });
    const stderr = err instanceof GitCommandError ? err.stderr.trim().split('\n').slice(-2).join(' ') : (err as Error).message;
    throw new DomainError(DomainErrorCode.InvalidInput, `Could not clone ${url}: ${stderr || 'git clone failed'}`, { git_url: url });
  }
}

function removeForbiddenFiles(root: string, isForbidden: (relativePath: string) => boolean): void {
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '.git' && dir === root) continue;
      const full = path.join(dir, entry.name);
      const rel = path.relative(root, full).split(path.sep).join('/');
      if (entry.isDirectory()) walk(full);
      else if (isForbidden(rel)) fs.rmSync(full, { force: true });
    }
  };
  walk(root);
}

/** The data directory's real path (as configured while it does not exist yet): what `isWithin` and discovery compare with. */
export function realDataDir(dataDir: string): string {
  return fs.existsSync(dataDir) ? fs.realpathSync(dataDir) : path.resolve(dataDir);
}

/** Whether `inner` is `outer` or lies inside it (both already real paths). */
export function isWithin(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** A readable default name: the directory or the URL's last segment without `.git`. */
export function defaultRepositoryName(source: string): string {
  const last = source.replace(/[\\/]+$/, '').split(/[\\/:]/).pop() ?? 'repo';
  return last.replace(/\.git$/, '').replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 200) || 'repo';
}
