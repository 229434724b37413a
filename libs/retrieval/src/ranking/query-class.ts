import { isIdentifierLike } from '../tokenizer';

/** `specific`: the query names code (identifiers, calls, paths); `conceptual`: it describes behaviour in words. */
export type QueryClass = 'specific' | 'conceptual';

const CODE_EXTENSIONS =
  'ts|tsx|js|jsx|mjs|cjs|py|go|rs|java|kt|kts|scala|rb|php|c|h|cc|cpp|hpp|cs|swift|m|mm|json|ya?ml|toml|ini|sql|sh|bash|ps1|css|scss|less|html|vue|svelte|proto|graphql|gql|gradle|xml|tf|lua|dart|ex|exs|erl|clj|r|jl|md|dockerfile|env';
const FILE_NAME = new RegExp(`(?:^|[\\s(\`'"])[\\w.-]*[\\w-]\\.(?:${CODE_EXTENSIONS})(?=$|[\\s,;:)?!\`'"]|\\.(?:\\s|$))`, 'i');
const PATH = /(?:^|[\s(`'"])(?:\.{0,2}\/)?(?:[\w.@-]+\/){2,}[\w.@-]*|(?:^|[\s(`'"])\.{1,2}\/[\w.@-]+|(?:^|[\s(`'"])(?:src|lib|app|apps|libs|packages|pkg|cmd|internal|test|tests)\/[\w.@-]+/i;
const CALL = /[A-Za-z_$][\w$]*\s?\(\s*\)|[A-Za-z_$][\w$]*\([\w$,\s]*\)/;
const MEMBER = /\b[A-Za-z_$][\w$]+\.[A-Za-z_$][\w$]+(?:\(|\b)/;
const BACKTICKED = /`[^`\s][^`]*`/;
const PLURAL_SUFFIX = /\w\((?:s|es)\)/gi; // "file(s)" is prose, not a call
const PROSE_NAMES = /\b(?:node|vue|next|nuxt|express|d3|chart|three|ember|backbone|socket)\.(?:js|io)\b/gi;
const VERSION = /^v?\d+(?:\.\d+)*[a-z]?$/i;
// Product names that look like identifiers but say nothing about this code base.
const PROPER_NAMES = new Set([
  'javascript', 'typescript', 'github', 'gitlab', 'bitbucket', 'graphql', 'postgresql', 'mysql', 'mongodb', 'websocket', 'websockets', 'oauth', 'oauth2',
  'openai', 'iphone', 'ipad', 'ios', 'macos', 'youtube', 'linkedin', 'nodejs', 'nextjs', 'vuejs', 'devops', 'pagerduty', 'sqlite', 'sqlite3', 'redis',
  'webpack', 'esbuild', 'jsonschema', 'openapi', 'fastapi', 'pytorch', 'tensorflow', 'http2', 'http3', 'utf8', 'utf16', 'base64', 'sha256', 'sha1', 'md5',
  'ipv4', 'ipv6', 'i18n', 'l10n', 'a11y', 'k8s', 'es6', 'es2015', 'html5', 'css3', 'mp4', 'mp3', 'h264', '2fa', 'x509',
]);

/** The reasons a query counts as specific (empty for a conceptual query). Useful for explain output. */
export function querySpecificSignals(rawQuery: string): string[] {
  const query = rawQuery.replace(PROSE_NAMES, ' ').replace(PLURAL_SUFFIX, (m) => m[0]);
  const signals: string[] = [];
  const backticked = BACKTICKED.exec(query);
  if (backticked) signals.push(`code span ${backticked[0]}`);
  const call = CALL.exec(query);
  if (call) signals.push(`call ${call[0].trim()}`);
  const path = PATH.exec(query);
  if (path) signals.push(`path ${path[0].trim()}`);
  const file = FILE_NAME.exec(query);
  if (file) signals.push(`file ${file[0].trim()}`);
  const member = MEMBER.exec(query);
  if (member && !file && !/^(e\.g|i\.e|etc)\b/i.test(member[0])) signals.push(`member ${member[0].replace(/\($/, '')}`);
  for (const word of query.match(/[\p{L}_$][\p{L}\p{N}_$]*/gu) ?? []) {
    if (VERSION.test(word) || PROPER_NAMES.has(word.toLowerCase())) continue;
    if (isIdentifierLike(word)) {
      signals.push(`identifier ${word}`);
      break;
    }
  }
  return signals;
}

/**
 * Classifies a search query: `specific` when it names code — an identifier (camelCase,
 * PascalCase with inner capitals, snake_case, SCREAMING_CASE, letters mixed with digits,
 * per the tokenizer's `isIdentifierLike`), a call `foo()`, a member `Foo.bar`, a file
 * name with a code extension, a path `a/b/c` or `src/x`, or a `code span` — else
 * `conceptual`. Version numbers (`v2.1`) and product names (GitHub, OAuth, TypeScript)
 * do not count. Fusion uses this to pick per-class weights (keyword and symbol search
 * win on specific queries; dense and task search on conceptual ones).
 *
 * @example
 * classifyQuery('where is parseHttpResponse defined') // 'specific'
 * classifyQuery('how do we expire old sessions')      // 'conceptual'
 */
export function classifyQuery(query: string): QueryClass {
  return querySpecificSignals(query).length > 0 ? 'specific' : 'conceptual';
}
