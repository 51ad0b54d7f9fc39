import { KeystoneToken } from '#platform/auth/keystone-token.js';
import { TokenCache } from './token-cache.js';

const token = (userId: string, expiresAt: number): KeystoneToken => ({
  userId, userDomainId: 'default', projectId: 'p', projectDomainId: 'default', domainId: null,
  roles: ['reader'], systemScope: false, issuedAt: 0, expiresAt,
});
const HOUR = 3_600_000;

describe('validated-token cache', () => {
  it('answers until the token expires, then forgets it', () => {
    const cache = new TokenCache<KeystoneToken>(10, HOUR);
    cache.set('t1', token('alice', 5_000), 0, 5_000);
    expect(cache.get('t1', 4_999)?.userId).toBe('alice');
    expect(cache.get('t1', 5_000)).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.get('t1', 1_000)).toBeUndefined();
  });

  it('answers for its time-to-live at most, however long the token lives: then Keystone is asked again', () => {
    const cache = new TokenCache<KeystoneToken>(10, 300_000);
    cache.set('t1', token('alice', HOUR), 1_000, HOUR);
    expect(cache.get('t1', 300_999)?.userId).toBe('alice');
    expect(cache.get('t1', 301_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps at most its capacity, dropping the least recently used', () => {
    const cache = new TokenCache<KeystoneToken>(2, HOUR);
    cache.set('a', token('a', 9_000), 0);
    cache.set('b', token('b', 9_000), 0);
    cache.get('a', 0); // a is now more recent than b
    cache.set('c', token('c', 9_000), 0);
    expect(cache.size).toBe(2);
    expect(cache.get('b', 0)).toBeUndefined();
    expect(cache.get('a', 0)?.userId).toBe('a');
    expect(cache.get('c', 0)?.userId).toBe('c');
  });

  it('replaces an entry for the same token rather than growing', () => {
    const cache = new TokenCache<KeystoneToken>(2, HOUR);
    cache.set('a', token('a', 1_000), 0, 1_000);
    cache.set('a', token('a', 2_000), 0, 2_000);
    expect(cache.size).toBe(1);
    expect(cache.get('a', 1_500)?.expiresAt).toBe(2_000);
  });

  it('keeps nothing with a capacity of 0 or a time-to-live of 0', () => {
    for (const cache of [new TokenCache<KeystoneToken>(0, HOUR), new TokenCache<KeystoneToken>(10, 0)]) {
      cache.set('a', token('a', 9_000), 0);
      expect(cache.get('a', 0)).toBeUndefined();
      expect(cache.size).toBe(0);
    }
  });
});
