import { streamOf } from './ledger-fixtures.js';
import { allocationsWritten } from './request-writes.js';

describe('allocations written by a request', () => {
  it('are the consumer events, whole sets and removals, in the order written', () => {
    const events = [
      ...streamOf('consumer-c1', [{
        type: 'ConsumerAllocationsReplaced',
        data: { allocations: { rp: { VCPU: 1 } }, project_id: 'p', user_id: 'u', consumer_type: 'INSTANCE', generation: 1 },
      }], 1),
      ...streamOf('provider-rp', [{ type: 'ProviderAllocationsChanged', data: { consumers: { c1: { VCPU: 1 }, c2: {} }, generation: 4 } }], 2),
      ...streamOf('consumer-c2', [{ type: 'ConsumerRemoved', data: { generation: 3 } }], 3),
    ];
    const writes = allocationsWritten(events);
    expect(writes.map(({ event, ...rest }) => ({ ...rest, revision: event.revision }))).toEqual([
      { consumerUuid: 'c1', removed: false, allocations: { rp: { VCPU: 1 } }, projectId: 'p', userId: 'u', consumerType: 'INSTANCE', generation: 1, revision: 0 },
      { consumerUuid: 'c2', removed: true, generation: 3, revision: 0 },
    ]);
  });

  it('say "no type" as null for consumers written before types existed', () => {
    const events = streamOf('consumer-c1', [{
      type: 'ConsumerAllocationsReplaced', data: { allocations: {}, project_id: 'p', user_id: 'u', consumer_type: null, generation: 0 },
    }]);
    expect(allocationsWritten(events)[0]).toMatchObject({ removed: false, consumerType: null, allocations: {} });
  });

  it('ignore provider, class and trait streams', () => {
    expect(allocationsWritten(streamOf('trait-CUSTOM_X', [{ type: 'TraitCreated', data: { name: 'CUSTOM_X' } }]))).toEqual([]);
  });
});
