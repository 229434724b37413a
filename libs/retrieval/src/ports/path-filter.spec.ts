import { compilePathFilter, literalGlobPrefix } from './path-filter';
import { validateIndexFilter } from './validate-filter';
import { InvalidFilterError, MissingWorkspaceError } from './index-errors';

describe('path filters', () => {
  it('applies include then exclude', () => {
    const keep = compilePathFilter(['src/**'], ['**/*.spec.ts'])!;
    expect(keep('src/a/b.ts')).toBe(true);
    expect(keep('src/a/b.spec.ts')).toBe(false);
    expect(keep('lib/x.ts')).toBe(false);
  });
  it('rejects pathological globs with a clear error', () => {
    expect(() => compilePathFilter(['x'.repeat(300)])).toThrow(InvalidFilterError);
    expect(() => compilePathFilter(['a{1..99999}'])).toThrow(/brace range/);
    expect(() => compilePathFilter(['+(a|aa)*'])).toThrow(/extglob/);
    expect(() => compilePathFilter(Array.from({ length: 21 }, (_, i) => `d${i}/**`))).toThrow(/max 20/);
  });
  it('finds the literal prefix a server can pre-filter on', () => {
    expect(literalGlobPrefix('src/api/**/*.ts')).toBe('src/api');
    expect(literalGlobPrefix('**/*.ts')).toBe('');
  });
  it('requires a workspace', () => {
    expect(() => validateIndexFilter({ workspaceId: '' }, 'op')).toThrow(MissingWorkspaceError);
    expect(() => validateIndexFilter({} as never, 'op')).toThrow(/workspaceId is required/);
  });
});
