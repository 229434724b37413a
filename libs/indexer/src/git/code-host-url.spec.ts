import { codeHostFileUrl, codeHostLineAnchor, remoteWebBase } from './code-host-url';

describe('code host URLs', () => {
  it.each([
    ['git@github.com:acme/shop.git', 'https://github.com/acme/shop'],
    ['https://github.com/acme/shop.git', 'https://github.com/acme/shop'],
    ['https://x-access-token:ghp_secret@github.com/acme/shop.git', 'https://github.com/acme/shop'],
    ['ssh://git@gitlab.example.com:2222/group/sub/shop.git', 'https://gitlab.example.com/group/sub/shop'],
    ['http://git.local:8080/acme/shop', 'https://git.local:8080/acme/shop'],
    ['https://bitbucket.org/acme/shop/', 'https://bitbucket.org/acme/shop'],
  ])('reads the web address of %s without credentials', (remote, base) => {
    expect(remoteWebBase(remote)).toBe(base);
  });

  it.each(['file:///srv/code/shop', '/srv/code/shop', '../shop', 'https://github.com/', 'ext::sh -c evil'])('has no web address for %s', (remote) => {
    expect(remoteWebBase(remote)).toBeNull();
  });

  it('writes each host’s blob URL at the commit, with encoded path segments', () => {
    const c = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
    expect(codeHostFileUrl('git@github.com:acme/shop.git', c, 'src/a b#.ts')).toEqual({ kind: 'github', url: `https://github.com/acme/shop/blob/${c}/src/a%20b%23.ts` });
    expect(codeHostFileUrl('https://gitlab.com/acme/shop.git', c, 'src/a.ts')).toEqual({ kind: 'gitlab', url: `https://gitlab.com/acme/shop/-/blob/${c}/src/a.ts` });
    expect(codeHostFileUrl('https://user:pw@bitbucket.org/acme/shop.git', c, 'src/a.ts')).toEqual({ kind: 'bitbucket', url: `https://bitbucket.org/acme/shop/src/${c}/src/a.ts` });
    expect(codeHostFileUrl('git@github.com:acme/shop.git', 'not a commit', 'a.ts')).toBeNull();
  });

  it('points at lines the way each host does', () => {
    expect(codeHostLineAnchor('github', 10, 12)).toBe('#L10-L12');
    expect(codeHostLineAnchor('github', 7)).toBe('#L7');
    expect(codeHostLineAnchor('gitlab', 10, 12)).toBe('#L10-12');
    expect(codeHostLineAnchor('bitbucket', 10, 12)).toBe('#lines-10:12');
  });
});
