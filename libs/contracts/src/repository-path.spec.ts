import { normaliseRepositoryPath, RepositoryPathSchema } from './repository-path';

describe('normaliseRepositoryPath', () => {
  it.each([
    ['src/app.py', 'src/app.py'],
    ['./src/app.py', 'src/app.py'],
    ['.\\src\\app.py', 'src/app.py'],
    ['src//pay/../pay/refund.ts', 'src/pay/refund.ts'],
    ['  docs/guide.md ', 'docs/guide.md'],
  ])('reads %j as %j', (raw, expected) => {
    expect(normaliseRepositoryPath(raw)).toBe(expected);
  });

  it.each(['/etc/passwd', 'C:\\Windows\\win.ini', 'c:/x', '../secrets', 'src/../../x', '.', './', 'a\0b', ''])('refuses %j', (raw) => {
    expect(normaliseRepositoryPath(raw)).toBeNull();
  });

  it('gives the schema error on the path, saying how to write it', () => {
    const result = RepositoryPathSchema.safeParse('../../etc/passwd');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe('not a path inside the repository: "../../etc/passwd" (write it relative to the repository root, e.g. src/app.py)');
  });
});
