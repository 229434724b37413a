import * as path from 'node:path';
import type { SkipReason } from './skip-reason';

/** Directories never worth indexing: VCS metadata, dependencies, vendored and generated output. */
export const DEFAULT_EXCLUDED_DIRS: readonly string[] = [
  '.git', '.hg', '.svn', 'node_modules', 'bower_components', 'jspm_packages', 'vendor', 'third_party',
  '.venv', 'venv', '__pycache__', '.tox', '.mypy_cache', '.pytest_cache', '.ruff_cache', 'dist', 'build',
  'out', 'target', '.next', '.nuxt', '.svelte-kit', 'coverage', '.nyc_output', '.gradle', '.idea', '.cache',
  '.turbo', '.parcel-cache', '__generated__', '.terraform',
];

const LOCKFILES = new Set([
  'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', 'bun.lock',
  'Cargo.lock', 'poetry.lock', 'Pipfile.lock', 'uv.lock', 'pdm.lock', 'go.sum', 'composer.lock', 'Gemfile.lock',
  'mix.lock', 'pubspec.lock', 'Podfile.lock', 'flake.lock', 'packages.lock.json', 'gradle.lockfile',
]);

const SECRET_NAMES = new Set([
  '.npmrc', '.pypirc', '.netrc', '_netrc', '.git-credentials', '.htpasswd', 'credentials', 'credentials.json',
  'credentials.yml', 'credentials.yaml', 'credentials.xml', '.dockercfg', 'secrets.yml', 'secrets.yaml',
  'secrets.json', 'service-account.json',
]);
const SECRET_EXTENSIONS = new Set(['.pem', '.key', '.p12', '.pfx', '.jks', '.keystore', '.asc', '.gpg', '.ppk']);

const BINARY_EXTENSIONS = new Set([
  '.png', '.jpg', '.jpeg', '.gif', '.bmp', '.ico', '.webp', '.tiff', '.psd', '.pdf', '.zip', '.gz', '.tgz',
  '.bz2', '.xz', '.7z', '.rar', '.tar', '.jar', '.war', '.class', '.exe', '.dll', '.so', '.dylib', '.o', '.a',
  '.obj', '.lib', '.wasm', '.pyc', '.pyo', '.bin', '.dat', '.db', '.sqlite', '.sqlite3', '.woff', '.woff2',
  '.ttf', '.otf', '.eot', '.mp3', '.mp4', '.mov', '.avi', '.wav', '.flac', '.ogg', '.webm', '.node', '.npy',
  '.parquet', '.onnx', '.pt', '.safetensors',
]);

/** Files that hold credentials; they are never opened. */
export function isSecretFileName(fileName: string): boolean {
  const name = path.basename(fileName);
  const lower = name.toLowerCase();
  if (lower === '.env' || lower.startsWith('.env.') || lower.endsWith('.env')) return true;
  if (lower.startsWith('id_rsa') || lower.startsWith('id_ed25519') || lower.startsWith('id_ecdsa') || lower.startsWith('id_dsa')) return true;
  if (SECRET_NAMES.has(lower)) return true;
  if (/(^|[._-])credentials([._-]|$)/.test(lower)) return true;
  return SECRET_EXTENSIONS.has(path.extname(lower));
}

/** Reason to skip a file from its name alone, or null. */
export function skipReasonForName(fileName: string): SkipReason | null {
  const name = path.basename(fileName);
  if (isSecretFileName(name)) return 'secret-file';
  if (LOCKFILES.has(name)) return 'lockfile';
  const lower = name.toLowerCase();
  if (/\.min\.(js|mjs|cjs|css)$/.test(lower) || /[.-]bundle\.js$/.test(lower)) return 'minified';
  if (/\.(map|pb\.go|pb\.cc|pb\.h|g\.dart|designer\.cs)$/.test(lower) || /\.generated\./.test(lower) || /_pb2(_grpc)?\.py$/.test(lower)) {
    return 'generated';
  }
  if (BINARY_EXTENSIONS.has(path.extname(lower))) return 'binary';
  return null;
}
