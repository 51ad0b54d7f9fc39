import type { EventStore, StreamRange } from '#event-store/index.js';
import { EventOwners, holdersNamed, ownerAt, statedOwner } from './event-owners.js';
import { streamOf } from './ledger-fixtures.js';

const claim = (project: string, user = 'u') => ({ type: 'ConsumerAllocationsReplaced', data: { allocations: {}, project_id: project, user_id: user, consumer_type: null, generation: 1 } });
const removal = { type: 'ConsumerRemoved', data: { generation: 2 } };
const consumer = streamOf('consumer-c1', [claim('A'), removal, claim('B', 'w'), removal]);
const provider = streamOf('provider-p1', [{ type: 'TraitsSet', data: { traits: [], generation: 1 } }]);

/** A store holding the consumer's stream, counting the reads that owners of removals need. */
function storeOf() {
  const reads: StreamRange[] = [];
  const store = {
    readStreamRange: async (stream: string, range: StreamRange) => {
      reads.push(range);
      if (stream !== 'consumer-c1') return [];
      const upTo = range.fromRevision ?? consumer.length - 1;
      return consumer.filter((e) => e.revision <= upTo).reverse().slice(0, range.limit);
    },
  } as unknown as EventStore;
  return { owners: new EventOwners(store), reads };
}

describe('the owners of events', () => {
  it('reads a claim\'s project and user off the claim; providers and imports belong to no project', () => {
    expect(statedOwner(consumer[0])).toEqual({ projectId: 'A', userId: 'u' });
    expect(statedOwner(consumer[1])).toBeUndefined();
    expect(statedOwner(provider[0])).toBeNull();
    expect(statedOwner({ stream: 'consumer-c1', type: 'StreamImported', data: { source: 'x' } })).toBeNull();
  });

  it('gives a removal the owner of the claim it removed, from the same page when it is there', async () => {
    const { owners, reads } = storeOf();
    const found = await owners.of([...consumer, ...provider]);
    expect(consumer.map((e) => found.get(e))).toEqual([
      { projectId: 'A', userId: 'u' }, { projectId: 'A', userId: 'u' }, { projectId: 'B', userId: 'w' }, { projectId: 'B', userId: 'w' },
    ]);
    expect(found.get(provider[0])).toBeNull();
    expect(reads).toEqual([]);
  });

  it('reads back through the store for a removal whose claim is on another page', async () => {
    const { owners, reads } = storeOf();
    const found = await owners.of([consumer[3]]);
    expect(found.get(consumer[3])).toEqual({ projectId: 'B', userId: 'w' });
    expect(reads).toEqual([{ fromRevision: 2, direction: 'backwards', limit: 8 }]);
  });

  it('knows who owns a stream last, and nobody for a stream never claimed', async () => {
    const { owners } = storeOf();
    expect(await owners.latest('consumer-c1')).toEqual({ projectId: 'B', userId: 'w' });
    expect(await owners.latest('consumer-none')).toBeNull();
  });

  it('names the consumers a provider\'s change of holdings sets, and none for its other facts', () => {
    expect(holdersNamed({ type: 'ProviderAllocationsChanged', data: { consumers: { c1: { VCPU: 1 }, c2: {} } } })).toEqual(['c1', 'c2']);
    expect(holdersNamed(provider[0])).toEqual([]);
  });

  it('gives a holding the owner of the claim in force at it, or, before any claim, the first claim of a stream read from its start', () => {
    const at = (prepare: number) => ({ commit: BigInt(100 + prepare), prepare: BigInt(prepare) });
    // consumer's positions: 1 claim A, 2 removal, 3 claim B, 4 removal.
    expect([1, 2, 3, 4, 9].map((prepare) => ownerAt(consumer, at(prepare))?.projectId)).toEqual(['A', 'A', 'B', 'B', 'B']);
    // An import writes its providers first: their holdings belong to the claim that follows.
    expect(ownerAt(consumer, at(0))).toEqual({ projectId: 'A', userId: 'u' });
    // A run that does not reach back to the claim in force knows nobody.
    expect(ownerAt(consumer.slice(2), at(2))).toBeNull();
    expect(ownerAt(consumer.slice(1), at(2))).toBeNull();
    expect(ownerAt(consumer.slice(2), at(3))).toEqual({ projectId: 'B', userId: 'w' });
    expect(ownerAt([], at(3))).toBeNull();
  });

  it('reads each consumer a page of holdings names once, its newest events backwards', async () => {
    const { owners, reads } = storeOf();
    const holdings = streamOf('provider-p1', [
      { type: 'ProviderAllocationsChanged', data: { consumers: { c1: { VCPU: 1 } }, generation: 1 } },
      { type: 'ProviderAllocationsChanged', data: { consumers: { c1: {}, c9: { VCPU: 2 } }, generation: 2 } },
    ], 2);
    const ownerOf = await owners.holdersOf(holdings);
    expect(ownerOf(holdings[0], 'c1')).toEqual({ projectId: 'A', userId: 'u' });
    expect(ownerOf(holdings[1], 'c1')).toEqual({ projectId: 'B', userId: 'w' });
    expect(ownerOf(holdings[1], 'c9')).toBeNull();
    expect(reads).toEqual([{ direction: 'backwards', limit: 100 }, { direction: 'backwards', limit: 100 }]);
  });
});
