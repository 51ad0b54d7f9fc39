import { LogPosition } from '#event-store/index.js';
import { PositionWaiters } from './position-waiters.js';

const at = (commit: number, prepare: number): LogPosition => ({ commit: BigInt(commit), prepare: BigInt(prepare) });

describe('PositionWaiters', () => {
  it('answers at once for a position the checkpoint already passed', async () => {
    const waiters = new PositionWaiters();
    waiters.advance(at(5, 9));
    await expect(waiters.wait(at(5, 9), 10)).resolves.toBe(true);
    await expect(waiters.wait(at(4, 100), 10)).resolves.toBe(true);
    expect(waiters.waiting).toBe(0);
  });

  it('releases exactly the writes the checkpoint passed', async () => {
    const waiters = new PositionWaiters();
    const early = waiters.wait(at(3, 1), 1000);
    const late = waiters.wait(at(7, 1), 50);
    waiters.advance(at(5, 0));
    await expect(early).resolves.toBe(true);
    expect(waiters.waiting).toBe(1);
    await expect(late).resolves.toBe(false);
    expect(waiters.waiting).toBe(0);
  });

  it('never moves back on a late report', () => {
    const waiters = new PositionWaiters();
    waiters.advance(at(8, 2));
    waiters.advance(at(6, 9));
    expect(waiters.reached).toEqual(at(8, 2));
  });

  it('times out when the projector does not catch up', async () => {
    const waiters = new PositionWaiters();
    const started = Date.now();
    await expect(waiters.wait(at(1, 1), 30)).resolves.toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('lets every waiter go on shutdown', async () => {
    const waiters = new PositionWaiters();
    const pending = waiters.wait(at(1, 1), 60_000);
    waiters.releaseAll();
    await expect(pending).resolves.toBe(false);
  });
});
