/** The code hosts whose blob URLs Sextant knows how to write. */
export type CodeHostKind = 'github' | 'gitlab' | 'bitbucket';

/** A file at one commit on the code host, and how to point at its lines. */
export interface CodeHostFile {
  kind: CodeHostKind;
  /** The file at the commit, without a line anchor. */
  url: string;
}

/**
 * The web address of a git remote (`https://…`, `ssh://…`, scp-like `git@host:owner/repo.git`),
 * with any credentials dropped; null for local (`file://`, a path) or unreadable remotes.
 *
 * @example
 * remoteWebBase('git@github.com:acme/shop.git') // 'https://github.com/acme/shop'
 */
export function remoteWebBase(remote: string): string | null {
  const r = remote.trim();
  if (!r || /\s/.test(r)) return null;
  let host: string;
  let repoPath: string;
  const scp = /^(?:[A-Za-z0-9._-]+@)?([A-Za-z0-9.-]+):(?![:/])(.+)$/.exec(r);
  if (scp && !/^[A-Za-z]+:\/\//.test(r)) {
    host = scp[1];
    repoPath = scp[2];
  } else {
    let u: URL;
    try {
      u = new URL(r);
    } catch {
      return null;
    }
    if (!['https:', 'http:', 'ssh:', 'git:'].includes(u.protocol) || !u.hostname) return null;
    // ssh and git ports are not web ports; an http(s) port is kept.
    host = u.protocol === 'https:' || u.protocol === 'http:' ? u.host : u.hostname;
    repoPath = u.pathname;
  }
  const clean = repoPath.replace(/^\/+/, '').replace(/\/+$/, '').replace(/\.git$/, '');
  if (!clean || clean.split('/').some((s) => s === '' || s === '.' || s === '..')) return null;
  return `https://${host.toLowerCase()}/${clean}`;
}

/** GitHub, GitLab or Bitbucket by host name; other hosts (GitHub Enterprise, Gitea, Forgejo) use GitHub's URL scheme. */
export function codeHostKind(webBase: string): CodeHostKind {
  const host = new URL(webBase).hostname;
  if (/(^|\.)gitlab\b/.test(host)) return 'gitlab';
  if (/(^|\.)bitbucket\b/.test(host)) return 'bitbucket';
  return 'github';
}

/**
 * The blob URL of `filePath` at `commit` on the remote's code host, or null when the remote
 * is not on a web host.
 *
 * @example
 * codeHostFileUrl('https://gitlab.com/acme/shop.git', 'abc123', 'src/a b.ts')
 * // { kind: 'gitlab', url: 'https://gitlab.com/acme/shop/-/blob/abc123/src/a%20b.ts' }
 */
export function codeHostFileUrl(remote: string, commit: string, filePath: string): CodeHostFile | null {
  const base = remoteWebBase(remote);
  if (!base || !/^[0-9a-f]{7,64}$/i.test(commit)) return null;
  const kind = codeHostKind(base);
  const encoded = filePath.split('/').map(encodeURIComponent).join('/');
  const middle = kind === 'gitlab' ? '-/blob' : kind === 'bitbucket' ? 'src' : 'blob';
  return { kind, url: `${base}/${middle}/${commit}/${encoded}` };
}

/**
 * The anchor that selects 1-based lines `start`–`end` on the host's file page.
 *
 * @example
 * codeHostLineAnchor('github', 10, 12) // '#L10-L12'
 */
export function codeHostLineAnchor(kind: CodeHostKind, start: number, end = start): string {
  if (kind === 'bitbucket') return end > start ? `#lines-${start}:${end}` : `#lines-${start}`;
  if (kind === 'gitlab') return end > start ? `#L${start}-${end}` : `#L${start}`;
  return end > start ? `#L${start}-L${end}` : `#L${start}`;
}
