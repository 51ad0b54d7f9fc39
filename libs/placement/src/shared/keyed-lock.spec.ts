import { KeyedLock } from './keyed-lock.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('keyed lock', () => {
  it('runs holders of the same key one at a time, in arrival order', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const job = (name: string) => lock.run(['p1'], async () => {
      log.push(`${name} in`);
      await tick();
      log.push(`${name} out`);
    });
    await Promise.all([job('a'), job('b'), job('c')]);
    expect(log).toEqual(['a in', 'a out', 'b in', 'b out', 'c in', 'c out']);
    expect(lock.size).toBe(0);
  });

  it('lets holders of different keys run together', async () => {
    const lock = new KeyedLock();
    let inside = 0;
    let most = 0;
    const job = (key: string) => lock.run([key], async () => {
      most = Math.max(most, ++inside);
      await tick();
      inside--;
    });
    await Promise.all([job('p1'), job('p2'), job('p3')]);
    expect(most).toBe(3);
  });

  it('does not deadlock holders of overlapping key sets given in opposite orders', async () => {
    const lock = new KeyedLock();
    const done: string[] = [];
    await Promise.all([
      lock.run(['a', 'b'], async () => { await tick(); done.push('ab'); }),
      lock.run(['b', 'a'], async () => { await tick(); done.push('ba'); }),
    ]);
    expect(done.sort()).toEqual(['ab', 'ba']);
  });

  it('releases the key when the work fails', async () => {
    const lock = new KeyedLock();
    await expect(lock.run(['p1'], async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    await expect(lock.run(['p1'], async () => 'next')).resolves.toBe('next');
    expect(lock.size).toBe(0);
  });
});
