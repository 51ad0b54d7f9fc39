import { ReplyBuffers } from './reply-buffers.js';
import { ReuseBudget } from './reuse-budget.js';

const MB = 1_000_000;
const buffersWithin = (limit = 32 * MB) => new ReplyBuffers(new ReuseBudget(limit));

describe('ReplyBuffers', () => {
  it('leaves small answers and huge ones to the allocator', () => {
    expect(buffersWithin().take(1000)).toBeNull();
    expect(buffersWithin().take(45 * MB)).toBeNull();
  });

  it('keeps idle no more than the budget allows, the oldest going first', () => {
    const budget = new ReuseBudget(32 * MB);
    const buffers = new ReplyBuffers(budget);
    const taken = Array.from({ length: 6 }, () => buffers.take(8 * MB)!);
    for (const buffer of taken) buffers.giveBack(buffer);
    expect(budget.used).toBe(32 * MB);
    // Four of 8 MB fit in 32 MB: the first two given back are gone.
    const again = Array.from({ length: 6 }, () => buffers.take(8 * MB)!.buffer);
    expect(again.filter((buffer) => taken.some((t) => t.buffer === buffer))).toEqual(taken.slice(2).map((t) => t.buffer));
    expect(budget.used).toBe(0);
  });

  it('hands out the memory of an answer given back, and never one still out', () => {
    const buffers = buffersWithin();
    const first = buffers.take(300_000)!;
    const second = buffers.take(300_000)!;
    expect(second.buffer).not.toBe(first.buffer);
    const answer = first.subarray(0, 280_000);
    buffers.giveBack(answer);
    // Given back once, handed out once.
    buffers.giveBack(answer);
    expect(buffers.take(290_000)!.buffer).toBe(first.buffer);
    expect(buffers.take(290_000)!.buffer).not.toBe(first.buffer);
  });

  it('takes back only memory it handed out: an answer kept elsewhere is never written over', () => {
    const buffers = buffersWithin();
    const kept = Buffer.allocUnsafe(300_000);
    buffers.giveBack(kept);
    expect(buffers.take(290_000)!.buffer).not.toBe(kept.buffer);
  });

  it('hands out shared memory again only once every holder has given it back', () => {
    const buffers = buffersWithin();
    const answer = buffers.take(300_000)!;
    // Sent and kept: two holders, then a third reply of the kept body.
    buffers.share(answer);
    buffers.share(answer);
    buffers.giveBack(answer);
    buffers.giveBack(answer);
    expect(buffers.take(290_000)!.buffer).not.toBe(answer.buffer);
    buffers.giveBack(answer);
    expect(buffers.take(290_000)!.buffer).toBe(answer.buffer);
    // Memory not lent is never shared into the buffers.
    const elsewhere = Buffer.allocUnsafe(300_000);
    buffers.share(elsewhere);
    buffers.giveBack(elsewhere);
    expect(buffers.take(290_000)!.buffer).not.toBe(elsewhere.buffer);
  });

  it('does not hand out a buffer too small for the answer', () => {
    const buffers = buffersWithin();
    buffers.giveBack(buffers.take(300_000)!);
    const bigger = buffers.take(600_000)!;
    expect(bigger.length).toBeGreaterThanOrEqual(600_000);
  });
});
