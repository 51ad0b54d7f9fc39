import { EventStore, WrongExpectedRevision } from '../../../event-store/src/index.js';
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
