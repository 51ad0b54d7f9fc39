import { refreshDue, ServiceToken, ServiceTokenSource, STALE_MS } from './service-token.js';

const HOUR = 3_600_000;
const issued = (token: string, issuedAt: number, lifetime = HOUR): ServiceToken => ({ token, issuedAt, expiresAt: issuedAt + lifetime });

describe('service token refresh', () => {
  it('renews an hour-long token two minutes before it expires', () => {
    const token = issued('s', 0);
    expect(refreshDue(token, HOUR - STALE_MS - 1)).toBe(false);
    expect(refreshDue(token, HOUR - STALE_MS)).toBe(true);
    expect(refreshDue(token, HOUR + 1)).toBe(true);
  });

  it('renews a short-lived token at half its life', () => {
    const token = issued('s', 0, 60_000);
    expect(refreshDue(token, 29_999)).toBe(false);
    expect(refreshDue(token, 30_000)).toBe(true);
  });

  it('reuses the token while fresh, then authenticates again', async () => {
    let now = 0;
    const tokens: ServiceToken[] = [];
    const source = new ServiceTokenSource(async () => {
      const token = issued(`s${tokens.length + 1}`, now);
      tokens.push(token);
      return token;
    }, () => now);
    expect((await source.get()).token).toBe('s1');
    now = HOUR - STALE_MS - 1;
    expect((await source.get()).token).toBe('s1');
    now = HOUR - STALE_MS;
    expect((await source.get()).token).toBe('s2');
    expect(tokens).toHaveLength(2);
  });

  it('lets concurrent callers share one authentication', async () => {
    let calls = 0;
    let finish!: (token: ServiceToken) => void;
    const source = new ServiceTokenSource(() => { calls++; return new Promise((done) => (finish = done)); }, () => 0);
    const both = Promise.all([source.get(), source.get()]);
    finish(issued('s1', 0));
    expect((await both).map((t) => t.token)).toEqual(['s1', 's1']);
    expect(calls).toBe(1);
  });

  it('authenticates anew after invalidate, and only for the token that was refused', async () => {
    let n = 0;
    const source = new ServiceTokenSource(async () => issued(`s${++n}`, 0), () => 0);
    const first = await source.get();
    source.invalidate(issued('someone-else', 0));
    expect((await source.get()).token).toBe('s1');
    source.invalidate(first);
    expect((await source.get()).token).toBe('s2');
  });

  it('does not keep a failed authentication: the next caller tries again', async () => {
    let fail = true;
    const source = new ServiceTokenSource(async () => {
      if (fail) throw new Error('Keystone down');
      return issued('s1', 0);
    }, () => 0);
    await expect(source.get()).rejects.toThrow('Keystone down');
    fail = false;
    expect((await source.get()).token).toBe('s1');
  });
});
