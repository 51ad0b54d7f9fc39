import { KurrentEventStore } from '#event-store/kurrent/kurrent-event-store.js';
import { InMemoryKurrentClient } from '#event-store/kurrent/testing/in-memory-kurrent-client.js';
import { WrongExpectedRevision } from '#event-store/index.js';
import { badRequest } from '#domain/index.js';
import { DeciderStates } from '../shared/decider-states.js';
import { asConcurrentUpdate, claimCommand } from './claim-command.js';

const HELD = {
  type: 'ConsumerAllocationsReplaced',
  data: { allocations: { 'rp-old': { VCPU: 1 } }, project_id: 'p', user_id: 'u', consumer_type: null, written_order: [], generation: 1, v: 1 },
};
const plan = (presumedNew: string[] = []) => ({
  consumers: ['c-held', 'c-new'],
  presumedNew,
  providers: (consumers: Record<string, { status: string; allocations?: object }>) => [
    'rp-named', ...Object.values(consumers).flatMap((consumer) => Object.keys(consumer.allocations ?? {})),
  ],
  decide: () => ({ consumers: {}, providers: {} }),
});

describe('claimCommand: a claim as the runner runs it', () => {
  let store: KurrentEventStore;
  let states: DeciderStates;

  beforeEach(async () => {
    store = new KurrentEventStore(new InMemoryKurrentClient());
    states = new DeciderStates(store);
    await store.append([{ stream: 'consumer-c-held', expectedRevision: 'any', events: [HELD] }]);
  });

  it('takes turns on its consumers and the providers they hold as read before the turn, and hands those reads to the first attempt', async () => {
    const { options } = await claimCommand(states, plan(), 4);
    expect(options.turns).toEqual(['consumer-c-held', 'consumer-c-new', 'provider-rp-named', 'provider-rp-old']);
    expect([...options.preloaded!.entries()].map(([stream, { revision }]) => [stream, revision])).toEqual([['consumer-c-held', 0], ['consumer-c-new', -1]]);
    expect(options.attempts).toBe(4);
  });

  it('reads no consumer presumed new that this process has never seen: the first attempt takes it for absent', async () => {
    const reads = jest.spyOn(store, 'readStream');
    const { options } = await claimCommand(states, plan(['c-new']), 10);
    expect(reads.mock.calls.map(([stream]) => stream)).toEqual(['consumer-c-held']);
    expect(options.presumedNew!('consumer-c-new')).toBe(true);
    expect(options.preloaded!.has('consumer-c-new')).toBe(false);
  });
});

function thrown(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('asConcurrentUpdate: a claim out of attempts', () => {
  it("is upstream's concurrent-update 409, in the endpoint's wording", () => {
    const lost = new WrongExpectedRevision('provider-1', 3);
    expect(thrown(() => asConcurrentUpdate()(lost))).toMatchObject({
      kind: 'conflict', code: 'placement.concurrent_update',
      message: 'Inventory and/or allocations changed while attempting to allocate: Another thread concurrently updated the resource provider data. Please retry your update',
    });
    expect(thrown(() => asConcurrentUpdate('update conflict: ')(lost))).toMatchObject({
      code: 'placement.concurrent_update', message: expect.stringMatching(/^update conflict: Another thread concurrently updated/),
    });
  });

  it('lets every other error through as it is', () => {
    const refusal = badRequest('no such provider');
    expect(thrown(() => asConcurrentUpdate()(refusal))).toBe(refusal);
  });
});
