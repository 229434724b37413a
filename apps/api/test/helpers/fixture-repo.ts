import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';

/** Writes files (relative path -> content) under a fresh temp dir; optionally `git init` + commit. */
export function makeFixtureRepo(files: Record<string, string>, options: { git?: boolean; prefix?: string } = {}): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), options.prefix ?? 'sextant-repo-')));
  writeFiles(root, files);
  if (options.git) {
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'initial');
  }
  return root;
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });
}

/** A small multi-language project with known symbols. */
export const SAMPLE_PROJECT: Record<string, string> = {
  'src/auth/session.ts': `import { randomUUID } from 'node:crypto';

/** Keeps user sessions and refreshes their expiry. */
export class SessionStore {
  private readonly sessions = new Map<string, number>();

  create(userId: string): string {
    const id = randomUUID();
    this.sessions.set(id, Date.now());
    return id;
  }

  refresh(sessionId: string): boolean {
    if (!this.sessions.has(sessionId)) return false;
    this.sessions.set(sessionId, Date.now());
    return true;
  }
}
`,
  'src/auth/token.py': `"""Token helpers."""

def validate_token(token: str) -> bool:
    """Checks the signature of an access token."""
    return token.startswith("tok_") and len(token) > 10


class TokenCache:
    def get(self, key):
        return None
`,
  'src/util/math.go': `package util

// Clamp limits v to the range [lo, hi].
func Clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
`,
  'docs/guide.md': `# Guide\n\n## Sessions\n\nSessions expire after an hour unless refreshed.\n`,
  'README.md': '# Sample\n\nA sample project.\n',
};

/** Every stored chunk of the embedded store, read straight from its SQLite file. */
export function readStoredChunks(dataDir: string): Array<{ id: string; path: string; chunkType: string; contentHash: string; startLine: number; workspaceId: string; repoId: string }> {
  const db = new Database(path.join(dataDir, 'vectors.sqlite'), { readonly: true });
  try {
    const rows = db.prepare('SELECT id, payload FROM chunks_points').all() as Array<{ id: string; payload: string }>;
    return rows.map((r) => ({ id: r.id, ...(JSON.parse(r.payload) as { path: string; chunkType: string; contentHash: string; startLine: number; workspaceId: string; repoId: string }) }));
  } finally {
    db.close();
  }
}
