import type { FastifyRequest } from 'fastify';
import { FakeKeystone } from '#test/support/keystone/fake-keystone.js';
import recorded from '../../../../../test/support/keystone/keystone-v3-recorded.json';
import { IdentityServiceUnavailable } from '#platform/auth/identity.js';
import { KeystoneClient } from '#platform/auth/keystone-client.js';
import { KeystoneSettings } from '#platform/auth/keystone-settings.js';
import { INVALID_TOKEN_CACHE_MS, KeystoneStrategy } from './keystone-strategy.js';

/** The strategy against Keystone's recorded answers (test/support/keystone/fake-keystone.ts). */
describe('keystone strategy over a recorded Keystone v3 exchange', () => {
  let now: number;
  let keystone: FakeKeystone;
  const clock = () => now;
  const settings = (overrides: Partial<KeystoneSettings> = {}): KeystoneSettings => ({
    authUrl: `${keystone.url}/v3`, username: 'placement', password: '431664ab8c51dd800fe8c862', projectName: 'service',
    userDomainName: 'Default', projectDomainName: 'Default', cacheSize: 100, cacheTimeSeconds: 300, ...overrides,
  });
  const strategy = (overrides: Partial<KeystoneSettings> = {}, timeoutMs?: number) =>
    new KeystoneStrategy(settings(overrides), new KeystoneClient(settings(overrides), timeoutMs), clock);
  const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;
  const withToken = (token: string) => request({ 'x-auth-token': token });

  beforeEach(async () => {
    now = Date.UTC(2030, 0, 1, 12);
    keystone = await FakeKeystone.start({ clock, serviceTokenLifetimeMs: 60_000 });
  });
  afterEach(async () => keystone.close());

  it('validates a user token with the service token and takes who it names', async () => {
    const auth = strategy();
    expect(await auth.authenticate(withToken(keystone.token('admin')))).toEqual({
      userId: 'e2683e8ff1594a32806b98bad354be4c', projectId: 'f3673bafc9714a7f803df073dde099fc', roles: ['reader', 'admin', 'member'],
      systemScope: false, domainId: null, userDomainId: 'default', projectDomainId: 'default',
    });
    expect(keystone.calls.map((c) => c.method)).toEqual(['POST', 'GET']);
    expect(keystone.calls[1]).toEqual({
      method: 'GET', subjectToken: keystone.token('admin'), authToken: recorded.passwordAuth.response.subjectToken,
    });
  });

  it('gives system scope to a system-scoped token and a domain to a domain-scoped one', async () => {
    const auth = strategy();
    expect(await auth.authenticate(withToken(keystone.token('systemAdmin')))).toMatchObject({ systemScope: true, projectId: null, roles: ['admin', 'member', 'reader'] });
    expect(await auth.authenticate(withToken(keystone.token('domainAdmin')))).toMatchObject({ systemScope: false, projectId: null, domainId: 'default' });
    expect(await auth.authenticate(withToken(keystone.token('reader')))).toMatchObject({ roles: ['reader'], projectId: 'c7bce881af01497cad5820c08a09d061' });
  });

  it('refuses a missing, bogus or malformed token; only a plausible one is sent to Keystone', async () => {
    const auth = strategy();
    expect(await auth.authenticate(request({}))).toBe('unauthorized');
    expect(await auth.authenticate(withToken('   '))).toBe('unauthorized');
    expect(await auth.authenticate(withToken('caf\u00e9'))).toBe('unauthorized');
    expect(keystone.calls).toEqual([]);
    expect(await auth.authenticate(withToken('bogus'))).toBe('unauthorized');
    expect(keystone.count('GET')).toBe(1);
  });

  it('strips the token as keystonemiddleware does', async () => {
    expect(await strategy().authenticate(withToken(` ${keystone.token('reader')}\n`))).toMatchObject({ roles: ['reader'] });
  });

  it('caches a validated token until its expires_at, then asks again', async () => {
    const auth = strategy();
    const token = keystone.token('shortLived'); // an application credential's token: 8 s of life
    expect(await auth.authenticate(withToken(token))).toMatchObject({ roles: ['reader'] });
    now += 7_000;
    expect(await auth.authenticate(withToken(token))).toMatchObject({ roles: ['reader'] });
    expect(keystone.count('GET')).toBe(1);
    now += 1_000;
    expect(await auth.authenticate(withToken(token))).toBe('unauthorized');
    expect(keystone.count('GET')).toBe(2);
  });

  it('sees a revocation once the cached entry is PLACEMENT_KEYSTONE_CACHE_TIME old; a cache size or time of 0 asks every time', async () => {
    const token = keystone.token('member');
    const cached = strategy();
    const uncached = strategy({ cacheSize: 0 });
    const untimed = strategy({ cacheTimeSeconds: 0 });
    for (const auth of [cached, uncached, untimed]) expect(await auth.authenticate(withToken(token))).not.toBe('unauthorized');
    keystone.revoke(token);
    now += 299_999;
    expect(await cached.authenticate(withToken(token))).not.toBe('unauthorized');
    expect(await uncached.authenticate(withToken(token))).toBe('unauthorized');
    expect(await untimed.authenticate(withToken(token))).toBe('unauthorized');
    now += 1;
    expect(await cached.authenticate(withToken(token))).toBe('unauthorized');
  });

  it('validates a token again after the cache time even when it lives longer', async () => {
    const auth = strategy({ cacheTimeSeconds: 2 });
    const token = keystone.token('reader');
    expect(await auth.authenticate(withToken(token))).not.toBe('unauthorized');
    now += 1_999;
    expect(await auth.authenticate(withToken(token))).not.toBe('unauthorized');
    expect(keystone.count('GET')).toBe(1);
    now += 1;
    expect(await auth.authenticate(withToken(token))).not.toBe('unauthorized');
    expect(keystone.count('GET')).toBe(2);
  });

  it('remembers a refused token for a short while, so repeating it does not reach Keystone', async () => {
    const auth = strategy();
    const revoked = keystone.token('member');
    keystone.revoke(revoked);
    for (const token of ['bogus', revoked]) {
      expect(await auth.authenticate(withToken(token))).toBe('unauthorized');
      expect(await auth.authenticate(withToken(token))).toBe('unauthorized');
    }
    expect(keystone.count('GET')).toBe(2);
    now += INVALID_TOKEN_CACHE_MS;
    expect(await auth.authenticate(withToken('bogus'))).toBe('unauthorized');
    expect(keystone.count('GET')).toBe(3);
  });

  it('does not remember a refusal when it caches nothing (size 0)', async () => {
    const auth = strategy({ cacheSize: 0 });
    await auth.authenticate(withToken('bogus'));
    await auth.authenticate(withToken('bogus'));
    expect(keystone.count('GET')).toBe(2);
  });

  it('shares one validation among concurrent requests with the same token', async () => {
    const auth = strategy();
    const token = keystone.token('reader');
    const results = await Promise.all([1, 2, 3].map(() => auth.authenticate(withToken(token))));
    expect(results.every((r) => r !== 'unauthorized')).toBe(true);
    expect(keystone.count('GET')).toBe(1);
    expect(keystone.count('POST')).toBe(1);
  });

  it('renews its own token before it expires', async () => {
    const auth = strategy({ cacheSize: 0 });
    await auth.authenticate(withToken(keystone.token('reader')));
    now += 29_000;
    await auth.authenticate(withToken(keystone.token('reader')));
    expect(keystone.count('POST')).toBe(1);
    now += 1_000; // half of the fake's 60 s service-token lifetime
    await auth.authenticate(withToken(keystone.token('reader')));
    expect(keystone.count('POST')).toBe(2);
    const gets = keystone.calls.filter((c) => c.method === 'GET');
    expect(gets[2].authToken).not.toBe(gets[1].authToken);
  });

  it('authenticates anew and retries once when Keystone refuses its service token', async () => {
    const auth = strategy({ cacheSize: 0 });
    await auth.authenticate(withToken(keystone.token('reader')));
    keystone.revokeServiceTokens();
    expect(await auth.authenticate(withToken(keystone.token('reader')))).toMatchObject({ roles: ['reader'] });
    expect(keystone.calls.map((c) => c.method)).toEqual(['POST', 'GET', 'GET', 'POST', 'GET']);
  });

  it('checks an X-Service-Token too: a bad one makes the request unauthorized', async () => {
    const auth = strategy();
    const user = keystone.token('reader');
    expect(await auth.authenticate(request({ 'x-auth-token': user, 'x-service-token': keystone.token('service') }))).toMatchObject({
      roles: ['reader'],
      service: {
        userId: 'c1f7871b86ce4a4bbf2318e9c45e7c57', userDomainId: 'default', projectId: 'bee4cd7e6a67456d81c5bcaed4762b00',
        projectDomainId: 'default', roles: ['service'],
      },
    });
    expect(await auth.authenticate(withToken(user))).not.toHaveProperty('service');
    expect(await auth.authenticate(request({ 'x-auth-token': user, 'x-service-token': 'bogus' }))).toBe('unauthorized');
  });

  it('is unavailable, not unauthorized, when its own credentials are refused', async () => {
    keystone.password = 'changed-by-the-operator';
    const failure = strategy().authenticate(withToken(keystone.token('reader')));
    await expect(failure).rejects.toThrow(IdentityServiceUnavailable);
    await expect(failure).rejects.toThrow(/refused the credentials of the service user "placement"/);
  });

  it('is unavailable when the service user may not validate tokens (403)', async () => {
    keystone.forbidden = true;
    await expect(strategy().authenticate(withToken(keystone.token('reader')))).rejects.toThrow(/answered 403 when validating a token/);
  });

  it('is unavailable when Keystone cannot be reached or does not answer in time', async () => {
    const hung = strategy({}, 200);
    keystone.hang = true;
    await expect(hung.authenticate(withToken(keystone.token('reader')))).rejects.toThrow(/did not answer within 200 ms/);
    const closed = settings();
    await keystone.close();
    const down = new KeystoneStrategy(closed, undefined, clock);
    await expect(down.authenticate(withToken('anything'))).rejects.toThrow(/Keystone at http:\/\/127\.0\.0\.1:\d+\/v3 is unreachable/);
    keystone = await FakeKeystone.start({ clock });
  });
});
