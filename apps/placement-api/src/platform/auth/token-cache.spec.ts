import { KeystoneToken } from './keystone-token.js';
import { TokenCache } from './token-cache.js';

const token = (userId: string, expiresAt: number): KeystoneToken => ({
  userId, userDomainId: 'default', projectId: 'p', projectDomainId: 'default', domainId: null,
  roles: ['reader'], systemScope: false, issuedAt: 0, expiresAt,
});

describe('validated-token cache', () => {
  it('answers until the token expires, then forgets it', () => {
    const cache = new TokenCache(10);
    cache.set('t1', token('alice', 5_000));
    expect(cache.get('t1', 4_999)?.userId).toBe('alice');
    expect(cache.get('t1', 5_000)).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.get('t1', 1_000)).toBeUndefined();
  });

  it('keeps at most its capacity, dropping the least recently used', () => {
    const cache = new TokenCache(2);
    cache.set('a', token('a', 9_000));
    cache.set('b', token('b', 9_000));
    cache.get('a', 0); // a is now more recent than b
    cache.set('c', token('c', 9_000));
    expect(cache.size).toBe(2);
    expect(cache.get('b', 0)).toBeUndefined();
    expect(cache.get('a', 0)?.userId).toBe('a');
    expect(cache.get('c', 0)?.userId).toBe('c');
  });

  it('replaces an entry for the same token rather than growing', () => {
    const cache = new TokenCache(2);
    cache.set('a', token('a', 1_000));
    cache.set('a', token('a', 2_000));
    expect(cache.size).toBe(1);
    expect(cache.get('a', 1_500)?.expiresAt).toBe(2_000);
  });

  it('keeps nothing with a capacity of 0', () => {
    const cache = new TokenCache(0);
    cache.set('a', token('a', 9_000));
    expect(cache.get('a', 0)).toBeUndefined();
  });
});
