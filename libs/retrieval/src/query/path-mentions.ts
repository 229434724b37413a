import type { MentionKind, QueryMention } from './query-evidence';

/** An indexed file a query mention resolved to. */
export interface MentionedFile {
  path: string;
  kind: MentionKind;
  /** 1 for a full-path or multi-segment match, less for a bare file name shared by several files. */
  strength: number;
  /** The mention as written (for `explain`). */
  mention: string;
}

/** Path suffixes kept per file: `a/b/c/d.py` -> `d.py`, `c/d.py`, `b/c/d.py`, `a/b/c/d.py`. */
const MAX_SUFFIX_SEGMENTS = 5;
/** A bare file name naming more files than this is too ambiguous to count. */
const MAX_BASENAME_FILES = 3;
const MODULE_FILE_SUFFIXES = ['.py', '/__init__.py', '.js', '.ts', '.tsx', '.jsx', '.mjs', '/index.js', '/index.ts', '.go', '.rs', '/mod.rs', '.java', '.kt', '.rb'];

/**
 * The indexed paths of a workspace, looked up by trailing path segments, so a traceback's
 * `/venv/lib/python3.11/site-packages/flask/app.py` or an issue's `flask.app` finds the
 * repository's `src/flask/app.py`.
 *
 * @example
 * const set = new IndexedPathSet(['src/flask/app.py', 'tests/test_app.py']);
 * set.resolve([{ kind: 'frame', path: 'venv/site-packages/flask/app.py' }]) // [{ path: 'src/flask/app.py', strength: 1, ... }]
 */
export class IndexedPathSet {
  private readonly bySuffix = new Map<string, string[]>();

  constructor(paths: Iterable<string>) {
    for (const path of paths) {
      const segments = path.split('/');
      for (let n = 1; n <= Math.min(MAX_SUFFIX_SEGMENTS, segments.length); n++) {
        const key = segments.slice(-n).join('/').toLowerCase();
        const list = this.bySuffix.get(key);
        if (!list) this.bySuffix.set(key, [path]);
        else if (list.length <= MAX_BASENAME_FILES) list.push(path);
      }
    }
  }

  /** Indexed files the mentions point at, strongest first, each file once (its strongest mention). */
  resolve(mentions: readonly QueryMention[]): MentionedFile[] {
    const best = new Map<string, MentionedFile>();
    const keep = (f: MentionedFile) => {
      const old = best.get(f.path);
      if (!old || f.strength > old.strength || (f.strength === old.strength && KIND_ORDER[f.kind] < KIND_ORDER[old.kind])) best.set(f.path, f);
    };
    for (const m of mentions) {
      const candidates = m.kind === 'module' ? moduleCandidates(m.path) : [m.path];
      for (const candidate of candidates) {
        const hit = this.longestSuffix(candidate, m.kind === 'module' ? 2 : 1);
        if (!hit) continue;
        for (const path of hit.paths) keep({ path, kind: m.kind, strength: hit.strength / hit.paths.length, mention: m.symbol ? `${m.path}:${m.symbol}` : m.path });
        break;
      }
    }
    return [...best.values()].sort((a, b) => b.strength - a.strength || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.path < b.path ? -1 : 1));
  }

  private longestSuffix(path: string, minSegments: number): { paths: string[]; strength: number } | null {
    const segments = path.toLowerCase().split('/');
    for (let n = Math.min(MAX_SUFFIX_SEGMENTS, segments.length); n >= minSegments; n--) {
      const paths = this.bySuffix.get(segments.slice(-n).join('/'));
      if (!paths) continue;
      if (paths.length > MAX_BASENAME_FILES) return null;
      // A bare file name is weaker evidence than a path with its folder.
      return { paths, strength: n >= 2 || segments.length === 1 ? 1 : 0.6 };
    }
    return null;
  }
}

const KIND_ORDER: Record<MentionKind, number> = { frame: 0, path: 1, module: 2 };

/** `flask/app/Flask/run` -> files it may live in: the longest module prefix first. */
function moduleCandidates(dotted: string): string[] {
  const parts = dotted.split('/');
  const out: string[] = [];
  // A module path needs a folder part: `flask/app` is a module; a lone name (`app`) is too vague.
  for (let n = parts.length; n >= 2 && n >= parts.length - 2; n--) {
    const base = parts.slice(0, n).join('/');
    for (const suffix of MODULE_FILE_SUFFIXES) out.push(`${base}${suffix}`);
  }
  return out;
}
