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
    await tick();
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
    await tick();
    expect(lock.size).toBe(0);
  });

  it('lets the next holder start once the holder hands over, and tells it when every earlier holder has ended', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    let endA!: () => void;
    const a = lock.run(['p1', 'p2'], async (turn) => {
      log.push('a in');
      turn.handOver();
      await new Promise<void>((resolve) => (endA = resolve));
      log.push('a out');
    });
    const b = lock.run(['p2'], async (turn) => {
      log.push('b in');
      await turn.earlierEnded;
      log.push('b saw a end');
    });
    const c = lock.run(['p2'], async () => {
      log.push('c in');
    });
    await tick();
    // b started while a still runs; c waits for b, which neither handed over nor ended.
    expect(log).toEqual(['a in', 'b in']);
    endA();
    await Promise.all([a, b, c]);
    expect(log).toEqual(['a in', 'b in', 'a out', 'b saw a end', 'c in']);
    await tick();
    expect(lock.size).toBe(0);
  });

  it('keeps an earlier holder that is still running in the next ones\' wait even after a later holder ended', async () => {
    const lock = new KeyedLock();
    let endA!: () => void;
    const a = lock.run(['p1'], async (turn) => {
      turn.handOver();
      await new Promise<void>((resolve) => (endA = resolve));
    });
    await lock.run(['p1'], async () => undefined);
    let cSawEarlierEnd = false;
    const c = lock.run(['p1'], async (turn) => {
      await turn.earlierEnded;
      cSawEarlierEnd = true;
    });
    await tick();
    expect(cSawEarlierEnd).toBe(false);
    endA();
    await Promise.all([a, c]);
    expect(cSawEarlierEnd).toBe(true);
  });
});
