import { ConcurrencyLimit } from './concurrency-limit.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('a bound on concurrent work', () => {
  it('runs at most its bound at once; the rest start in arrival order as places free up', async () => {
    const limit = new ConcurrencyLimit(2);
    const started: number[] = [];
    const finish: (() => void)[] = [];
    const tasks = [0, 1, 2, 3].map((n) => limit.run(() => { started.push(n); return new Promise<number>((done) => finish[n] = () => done(n)); }));
    await tick();
    expect(started).toEqual([0, 1]);
    expect([limit.active, limit.queued]).toEqual([2, 2]);
    finish[1]();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    finish[0]();
    finish[2]();
    await tick();
    finish[3]();
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3]);
    expect([limit.active, limit.queued]).toEqual([0, 0]);
  });

  it('frees the place of a task that fails', async () => {
    const limit = new ConcurrencyLimit(1);
    await expect(limit.run(async () => { throw new Error('Keystone down'); })).rejects.toThrow('Keystone down');
    expect(await limit.run(async () => 'next')).toBe('next');
    expect(limit.active).toBe(0);
  });

  it('never exceeds the bound over a long queue, which drains completely', async () => {
    const limit = new ConcurrencyLimit(16);
    let inFlight = 0;
    let most = 0;
    const results = await Promise.all(Array.from({ length: 5000 }, (_, n) => limit.run(async () => {
      most = Math.max(most, ++inFlight);
      await tick();
      inFlight--;
      return n;
    })));
    expect(most).toBe(16);
    expect(results[4999]).toBe(4999);
    expect([limit.active, limit.queued]).toEqual([0, 0]);
  });
});
