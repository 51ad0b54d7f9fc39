import { ConsumerEvent } from '../consumer/consumer.events.js';
import { ConsumerState, evolveConsumer, initialConsumerState } from '../consumer/consumer.state.js';
import { ProviderEvent } from '../provider/provider.events.js';
import { ProviderState, evolveProvider, initialProviderState } from '../provider/provider.state.js';
import { UndoInput } from './undo-input.js';
import { planUndo } from './undo-plan.js';

const RP = 'rp-1';
const CN = 'consumer-a';
const OTHER = 'consumer-b';
const INV = { VCPU: { total: 4, reserved: 0, min_unit: 1, max_unit: 4, step_size: 1, allocation_ratio: 1 } };

const provider = (...events: ProviderEvent[]): ProviderState => events.reduce(evolveProvider, initialProviderState());
const consumer = (...events: ConsumerEvent[]): ConsumerState => events.reduce(evolveConsumer, initialConsumerState());
const created: ProviderEvent = { type: 'ResourceProviderCreated', data: { uuid: RP, name: 'cn1', parent_provider_uuid: null, generation: 0, v: 1 } };
const inventories = (reserved: number, generation: number): ProviderEvent =>
  ({ type: 'InventoriesSet', data: { inventories: { VCPU: { ...INV.VCPU, reserved } }, generation, v: 1 } });
const holds = (who: string, vcpu: number, generation: number): ProviderEvent =>
  ({ type: 'ProviderAllocationsChanged', data: { consumers: { [who]: vcpu ? { VCPU: vcpu } : {} }, generation, v: 1 } });
const claimed = (vcpu: number, generation: number): ConsumerEvent => ({
  type: 'ConsumerAllocationsReplaced',
  data: { allocations: { [RP]: { VCPU: vcpu } }, project_id: 'p', user_id: 'u', consumer_type: 'INSTANCE', generation, v: 1 },
});
const removed = (generation: number): ConsumerEvent => ({ type: 'ConsumerRemoved', data: { generation, v: 1 } });

const input = (over: Partial<UndoInput>): UndoInput => ({
  mode: 'restore', providersNow: {}, providerTargets: {}, consumersNow: {}, consumerTargets: {},
  nameHolders: {}, childrenNow: {}, unknownClasses: [], unknownTraits: [], ...over,
});
const eventsOf = (plan: ReturnType<typeof planUndo>, stream: string) => plan.streams.find((s) => s.stream === stream);

describe('planning an undo', () => {
  it('gives a removed consumer its allocations back, on both sides, with generations moving forward', () => {
    const rpNow = provider(created, inventories(0, 1), holds(CN, 2, 2), holds(CN, 0, 2));
    const plan = planUndo(input({
      providersNow: { [RP]: rpNow },
      consumersNow: { [CN]: consumer(claimed(2, 1), removed(1)) },
      consumerTargets: { [CN]: { then: consumer(claimed(2, 1)), lastGeneration: 1 } },
    }));
    expect(eventsOf(plan, `consumer-${CN}`)?.events).toEqual([{
      type: 'ConsumerAllocationsReplaced',
      data: { allocations: { [RP]: { VCPU: 2 } }, project_id: 'p', user_id: 'u', consumer_type: 'INSTANCE', written_order: [[RP, ['VCPU']]], generation: 2, v: 1 },
    }]);
    expect(eventsOf(plan, `provider-${RP}`)?.events).toEqual([holds(CN, 2, 3)]);
    expect(plan.streams.flatMap((s) => s.problems)).toEqual([]);
  });

  it('refuses a consumer whose claim no longer fits, and lists why, appending nothing for it', () => {
    const rpNow = provider(created, inventories(0, 1), holds(CN, 2, 2), holds(CN, 0, 2), holds(OTHER, 3, 3));
    const plan = planUndo(input({
      providersNow: { [RP]: rpNow },
      consumersNow: { [CN]: consumer(claimed(2, 1), removed(1)) },
      consumerTargets: { [CN]: { then: consumer(claimed(2, 1)), lastGeneration: 1 } },
    }));
    const stream = eventsOf(plan, `consumer-${CN}`)!;
    expect(stream.events).toEqual([]);
    expect(stream.problems).toEqual([`would over-commit VCPU on provider ${RP}: 5 used of a capacity of 4 (capacity was taken since)`]);
    expect(eventsOf(plan, `provider-${RP}`)).toBeUndefined();
  });

  it('makes a deleted provider again with its name, inventories, after the generation its stream reached', () => {
    const then = provider(created, inventories(0, 1));
    const now = provider(created, inventories(0, 1), { type: 'ResourceProviderDeleted', data: { generation: 1, v: 1 } });
    const plan = planUndo(input({ providersNow: { [RP]: now }, providerTargets: { [RP]: { then, lastGeneration: 1 } }, nameHolders: { cn1: null } }));
    expect(eventsOf(plan, `provider-${RP}`)?.events).toEqual([
      { type: 'ResourceProviderCreated', data: { uuid: RP, name: 'cn1', parent_provider_uuid: null, generation: 2, v: 1 } },
      inventories(0, 3),
    ]);
  });

  it('refuses a provider whose name another holds now, whose parent is gone, or whose class or trait was deleted', () => {
    const then = provider({ ...created, data: { ...created.data, parent_provider_uuid: 'gone' } } as ProviderEvent, inventories(0, 1),
      { type: 'TraitsSet', data: { traits: ['CUSTOM_T'], generation: 2, v: 1 } });
    const plan = planUndo(input({
      providersNow: { [RP]: { status: 'deleted', uuid: RP }, gone: { status: 'deleted', uuid: 'gone' } },
      providerTargets: { [RP]: { then, lastGeneration: 2 } }, nameHolders: { cn1: 'rp-2' }, unknownClasses: ['VCPU'], unknownTraits: ['CUSTOM_T'],
    }));
    expect(eventsOf(plan, `provider-${RP}`)).toMatchObject({ events: [], problems: [
      'name "cn1" is now held by provider rp-2', 'parent provider gone no longer exists',
      'resource class VCPU was deleted since', 'trait CUSTOM_T was deleted since',
    ] });
  });

  it('sets inventories back without touching the allocations made since', () => {
    const now = provider(created, inventories(0, 1), inventories(4, 2), holds(OTHER, 0, 3));
    const plan = planUndo(input({ providersNow: { [RP]: now }, providerTargets: { [RP]: { then: provider(created, inventories(0, 1)), lastGeneration: 3 } } }));
    expect(eventsOf(plan, `provider-${RP}`)?.events).toEqual([inventories(0, 4)]);
  });

  it('in a revert takes away what the request created; in a restore leaves what did not exist then', () => {
    const now = consumer(claimed(1, 0));
    const target = { [CN]: { then: initialConsumerState(), lastGeneration: 0 } };
    const rpNow = provider(created, inventories(0, 1), holds(CN, 1, 2));
    const revert = planUndo(input({ mode: 'revert', providersNow: { [RP]: rpNow }, consumersNow: { [CN]: now }, consumerTargets: target }));
    expect(eventsOf(revert, `consumer-${CN}`)?.events).toEqual([removed(1)]);
    expect(eventsOf(revert, `provider-${RP}`)?.events).toEqual([holds(CN, 0, 3)]);
    const restore = planUndo(input({ providersNow: { [RP]: rpNow }, consumersNow: { [CN]: now }, consumerTargets: target }));
    expect(restore.streams.flatMap((s) => s.events)).toEqual([]);
  });
});

describe('over-commit', () => {
  it('refuses only the consumers that do not fit, the first in uuid order taking what is free', () => {
    const rpNow = provider(created, inventories(0, 1), holds(OTHER, 2, 2));
    const gone = consumer(claimed(2, 0), removed(0));
    const plan = planUndo(input({
      providersNow: { [RP]: rpNow },
      consumersNow: { 'c-1': gone, 'c-2': gone },
      consumerTargets: { 'c-1': { then: consumer(claimed(2, 0)), lastGeneration: 0 }, 'c-2': { then: consumer(claimed(2, 0)), lastGeneration: 0 } },
    }));
    expect(eventsOf(plan, 'consumer-c-1')?.problems).toEqual([]);
    expect(eventsOf(plan, 'consumer-c-2')).toMatchObject({ events: [], problems: [expect.stringContaining('would over-commit VCPU')] });
  });
});

describe('taking a provider away in a revert', () => {
  const made = provider(created, inventories(0, 1));
  const target = { [RP]: { then: initialProviderState(), lastGeneration: null } };

  it('deletes it, after the generation it reached', () => {
    const plan = planUndo(input({ mode: 'revert', providersNow: { [RP]: made }, providerTargets: target }));
    expect(eventsOf(plan, `provider-${RP}`)?.events).toEqual([{ type: 'ResourceProviderDeleted', data: { generation: 1, v: 1 } }]);
  });

  it('refuses while a child made since stays, or while a consumer outside the revert holds on it', () => {
    const busy = provider(created, inventories(0, 1), holds(OTHER, 1, 2));
    // The child is not in the revert: it stays, so its parent must.
    const plan = planUndo(input({ mode: 'revert', providersNow: { [RP]: busy }, providerTargets: target, childrenNow: { [RP]: ['kid'] } }));
    expect(eventsOf(plan, `provider-${RP}`)).toMatchObject({ events: [], problems: ['it has child providers (kid)', 'it has allocations'] });
  });
});
