import { ReplyBuffers } from './reply-buffers.js';

describe('ReplyBuffers', () => {
  it('leaves small answers and huge ones to the allocator', () => {
    expect(new ReplyBuffers().take(1000)).toBeNull();
    expect(new ReplyBuffers().take(45_000_000)).toBeNull();
  });

  it('keeps at most 32 MB idle, the oldest going first', () => {
    const buffers = new ReplyBuffers();
    const taken = Array.from({ length: 6 }, () => buffers.take(8_000_000)!);
    for (const buffer of taken) buffers.giveBack(buffer);
    // Four of 8 MB fit in 32 MB: the first two given back are gone.
    const again = Array.from({ length: 6 }, () => buffers.take(8_000_000)!.buffer);
    expect(again.filter((buffer) => taken.some((t) => t.buffer === buffer))).toEqual(taken.slice(2).map((t) => t.buffer));
  });

  it('hands out the memory of an answer given back, and never one still out', () => {
    const buffers = new ReplyBuffers();
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
    const buffers = new ReplyBuffers();
    const kept = Buffer.allocUnsafe(300_000);
    buffers.giveBack(kept);
    expect(buffers.take(290_000)!.buffer).not.toBe(kept.buffer);
  });

  it('does not hand out a buffer too small for the answer', () => {
    const buffers = new ReplyBuffers();
    buffers.giveBack(buffers.take(300_000)!);
    const bigger = buffers.take(600_000)!;
    expect(bigger.length).toBeGreaterThanOrEqual(600_000);
  });
});
