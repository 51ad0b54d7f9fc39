import { FreshReads } from './fresh-reads.js';

/** A read the test finishes by hand, recording when each was sent. */
function manualReads() {
  const sent: { resolve: (value: number) => void; reject: (error: Error) => void }[] = [];
  const reads = new FreshReads<number>(() => new Promise<number>((resolve, reject) => sent.push({ resolve, reject })));
  return { reads, sent };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('FreshReads', () => {
  it('sends a read at once when none is in flight', async () => {
    const { reads, sent } = manualReads();
    const answer = reads.get();
    expect(sent).toHaveLength(1);
    sent[0].resolve(7);
    await expect(answer).resolves.toBe(7);
  });

  it('never answers a caller with a read sent before it called', async () => {
    const { reads, sent } = manualReads();
    const first = reads.get();
    const second = reads.get();
    sent[0].resolve(1);
    await expect(first).resolves.toBe(1);
    await settle();
    expect(sent).toHaveLength(2);
    sent[1].resolve(2);
    await expect(second).resolves.toBe(2);
  });

  it('answers every caller who arrived during one read with the single next read', async () => {
    const { reads, sent } = manualReads();
    const first = reads.get();
    const waiting = [reads.get(), reads.get(), reads.get()];
    sent[0].resolve(1);
    await first;
    await settle();
    sent[1].resolve(2);
    await expect(Promise.all(waiting)).resolves.toEqual([2, 2, 2]);
    expect(sent).toHaveLength(2);
  });

  it('passes a failed read to its callers only; those waiting get a read of their own', async () => {
    const { reads, sent } = manualReads();
    const first = reads.get();
    const second = reads.get();
    sent[0].reject(new Error('database gone'));
    await expect(first).rejects.toThrow('database gone');
    await settle();
    sent[1].resolve(5);
    await expect(second).resolves.toBe(5);
    const third = reads.get();
    expect(sent).toHaveLength(3);
    sent[2].resolve(6);
    await expect(third).resolves.toBe(6);
  });
});
