import { requiredAccess } from './route-roles';

describe('requiredAccess', () => {
  it('defaults to reader for reads and member for writes', () => {
    expect(requiredAccess('GET', '/v1/anything', {})).toBe('reader');
    expect(requiredAccess('HEAD', '/v1/anything', {})).toBe('reader');
    expect(requiredAccess('POST', '/v1/anything', {})).toBe('member');
    expect(requiredAccess('DELETE', '/v1/anything/:id', {})).toBe('member');
  });

  it('uses the policy table for routes of other modules', () => {
    expect(requiredAccess('POST', '/v1/repos', {})).toBe('admin');
    expect(requiredAccess('DELETE', '/v1/repos/:id/', {})).toBe('admin');
    expect(requiredAccess('POST', '/v1/repos/:id/index', {})).toBe('member');
    expect(requiredAccess('POST', '/v1/search', {})).toBe('reader');
    expect(requiredAccess('GET', '/health', {})).toBe('public');
  });

  it('lets a decorator override the table and the default', () => {
    expect(requiredAccess('POST', '/v1/repos', { role: 'reader' })).toBe('reader');
    expect(requiredAccess('POST', '/v1/repos', { isPublic: true })).toBe('public');
  });
});
