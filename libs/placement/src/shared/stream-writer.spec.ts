import { EventStore, WrongExpectedRevision } from '#event-store/index.js';
import { MAX_ATTEMPTS, StreamWriter } from './stream-writer.js';

/** A log where another writer always wins: every append loses the race. */
function alwaysRacing(): { store: EventStore; appends: () => number } {
  let appends = 0;
  const store = {
    append: async () => { appends++; throw new WrongExpectedRevision('consumer-1', 0); },
  } as unknown as EventStore;
  return { store, appends: () => appends };
}

const plan = async () => ({ appends: [{ stream: 'consumer-1', expectedRevision: 0, events: [{ type: 'X', data: {} }] }], outcome: undefined });

describe('StreamWriter.execute: bounded attempts against racing writers', () => {
  it('decides again up to maxAttempts times (allocation_conflict_retry_count), then gives up', async () => {
    const racing = alwaysRacing();
    await expect(new StreamWriter(racing.store).execute(plan as any, 3)).rejects.toBeInstanceOf(WrongExpectedRevision);
    expect(racing.appends()).toBe(3);
  });

  it('tries 10 times by default, as upstream', async () => {
    const racing = alwaysRacing();
    await expect(new StreamWriter(racing.store).execute(plan as any)).rejects.toBeInstanceOf(WrongExpectedRevision);
    expect(racing.appends()).toBe(MAX_ATTEMPTS);
    expect(MAX_ATTEMPTS).toBe(10);
  });
});

describe('StreamWriter.load: a cache ahead of the log', () => {
  it('is dropped when a lost race finds no newer event (the log lost commits this process read: a failover)', async () => {
    // The log held revisions 0..2, then lost 2 (a standby promoted without it).
    let log = [0, 1, 2];
    const store = {
      readStream: async (_: string, from: number) => log.filter((r) => r >= from).map((revision) => ({ revision, type: 'X', data: { revision } })),
      append: async (requests: Array<{ expectedRevision: number }>) => {
        if (requests[0].expectedRevision !== log.length - 1) throw new WrongExpectedRevision('provider-1', requests[0].expectedRevision);
        log = [...log, log.length];
        return { position: { commit: 1n, prepare: 1n }, revisions: { 'provider-1': log.length - 1 } };
      },
    } as unknown as EventStore;
    const writer = new StreamWriter(store);
    const evolve = (count: number) => count + 1;
    expect((await writer.load('provider-1', evolve, () => 0)).revision).toBe(2);
    log = [0, 1];
    const planned = async () => {
      const { revision } = await writer.load('provider-1', evolve, () => 0);
      return { appends: [{ stream: 'provider-1', expectedRevision: revision, events: [{ type: 'X', data: {} }] }], outcome: revision };
    };
    const { outcome } = await writer.execute(planned as any);
    expect(outcome).toBe(1);
    expect(log).toEqual([0, 1, 2]);
  });
});
