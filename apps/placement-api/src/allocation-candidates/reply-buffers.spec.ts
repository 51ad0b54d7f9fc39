import { ReplyBuffers } from './reply-buffers.js';

describe('ReplyBuffers', () => {
  it('leaves small answers to the allocator', () => {
    expect(new ReplyBuffers().take(1000)).toBeNull();
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

  it('does not hand out a buffer too small for the answer', () => {
    const buffers = new ReplyBuffers();
    buffers.giveBack(buffers.take(300_000)!);
    const bigger = buffers.take(600_000)!;
    expect(bigger.length).toBeGreaterThanOrEqual(600_000);
  });
});
