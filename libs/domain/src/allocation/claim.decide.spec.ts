import { writtenOrder } from '../consumer/allocation-order.js';
import { ConsumerAllocations, ConsumerEvent } from '../consumer/consumer.events.js';
import { ConsumerState, evolveConsumer, initialConsumerState } from '../consumer/consumer.state.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { Inventories, Inventory, inventoryWithDefaults } from '../provider/inventory.js';
import { ProviderEvent, ProviderHolding } from '../provider/provider.events.js';
import { ProviderState, evolveProvider, initialProviderState } from '../provider/provider.state.js';
import { ClaimAllocations, ClaimDecision, ClaimState, RemoveAllocations } from './claim.js';
import { decideClaim, decideRemoval } from './claim.decide.js';

interface History {
  readonly providers?: Record<string, ProviderEvent[]>;
  readonly consumers?: Record<string, ConsumerEvent[]>;
}

function stateOf(history: History): ClaimState {
  const providers: Record<string, ProviderState> = {};
  for (const [uuid, events] of Object.entries(history.providers ?? {})) providers[uuid] = events.reduce(evolveProvider, initialProviderState());
  const consumers: Record<string, ConsumerState> = {};
  for (const [uuid, events] of Object.entries(history.consumers ?? {})) consumers[uuid] = events.reduce(evolveConsumer, initialConsumerState());
  return { providers, consumers };
}

function given(history: History) {
  const state = stateOf(history);
  return {
    when(command: ClaimAllocations | RemoveAllocations) {
      const run = () => (command.type === 'ClaimAllocations' ? decideClaim(command, state) : decideRemoval(command, state));
      return {
        then: (expected: ClaimDecision) => expect(run()).toEqual(expected),
        thenThrows(kind: DomainError['kind'], detail: string, code: ErrorCode = ErrorCode.UNDEFINED) {
          let error: unknown;
          try { run(); } catch (e) { error = e; }
          expect(error).toBeInstanceOf(DomainError);
          expect(error).toMatchObject({ kind, detail, code });
        },
      };
    },
  };
}

const created = (uuid: string): ProviderEvent =>
  ({ type: 'ResourceProviderCreated', data: { uuid, name: `rp-${uuid.slice(0, 4)}`, parent_provider_uuid: null, generation: 0, v: 1 } });
const inventoriesSet = (inventories: Inventories, generation: number): ProviderEvent =>
  ({ type: 'InventoriesSet', data: { inventories, generation, v: 1 } });
const inv = (total: number, extra: Partial<Inventory> = {}) => inventoryWithDefaults({ total, ...extra });
const providerChanged = (consumers: Record<string, ProviderHolding>, generation: number): ProviderEvent =>
  ({ type: 'ProviderAllocationsChanged', data: { consumers, generation, v: 1 } });

const replaced = (
  allocations: ConsumerAllocations, generation: number, extra: Partial<{ project_id: string; user_id: string; consumer_type: string | null }> = {},
): ConsumerEvent => ({
  type: 'ConsumerAllocationsReplaced',
  data: { allocations, project_id: 'proj', user_id: 'user', consumer_type: null, written_order: writtenOrder(allocations), generation, v: 1, ...extra },
});
const removed = (generation: number): ConsumerEvent => ({ type: 'ConsumerRemoved', data: { generation, v: 1 } });

const CN = 'c0ffee00-0000-4000-8000-000000000001';
const CN2 = 'c0ffee00-0000-4000-8000-000000000002';
const DISK = 'c0ffee00-0000-4000-8000-0000000000d1';
const VM = 'aaaaaaaa-0000-4000-8000-000000000001';
const VM2 = 'aaaaaaaa-0000-4000-8000-000000000002';
const OTHER = 'aaaaaaaa-0000-4000-8000-0000000000ff';

/** cn1 at generation 1: VCPU 8 (reserved 2, ratio 1.5: capacity 9), DISK_GB 100 (step 10, max 50). */
const cn1 = [created(CN), inventoriesSet({ VCPU: inv(8, { reserved: 2, allocation_ratio: 1.5 }), DISK_GB: inv(100, { step_size: 10, max_unit: 50 }) }, 1)];
const cn2 = [created(CN2), inventoriesSet({ VCPU: inv(4) }, 1)];
const disk = [created(DISK), inventoriesSet({ DISK_GB: inv(1000) }, 1)];

const claim = (consumers: ClaimAllocations['claims'], extra: Partial<ClaimAllocations> = {}): ClaimAllocations =>
  ({ type: 'ClaimAllocations', form: 'consumer', claims: consumers, unknownClasses: [], ...extra });
const part = (consumerUuid: string, allocations: ConsumerAllocations, extra: Partial<ClaimAllocations['claims'][number]> = {}) =>
  ({ consumerUuid, allocations, projectId: 'proj', userId: 'user', ...extra });

describe('ClaimAllocations: a new consumer', () => {
  it('writes the consumer at generation 1 and moves the provider generation by one', () => {
    given({ providers: { [CN]: cn1 } }).when(claim([part(VM, { [CN]: { VCPU: 2 } }, { expectedGeneration: null })])).then({
      consumers: { [VM]: [replaced({ [CN]: { VCPU: 2 } }, 1)] },
      providers: { [CN]: [providerChanged({ [VM]: { VCPU: 2 } }, 2)] },
    });
  });

  it('may use every unit of (total - reserved) * allocation_ratio, truncated, and not one more', () => {
    given({ providers: { [CN]: cn1 } }).when(claim([part(VM, { [CN]: { VCPU: 9 } })])).then({
      consumers: { [VM]: [replaced({ [CN]: { VCPU: 9 } }, 1)] },
      providers: { [CN]: [providerChanged({ [VM]: { VCPU: 9 } }, 2)] },
    });
    given({ providers: { [CN]: cn1 } }).when(claim([part(VM, { [CN]: { VCPU: 10 } })])).thenThrows('conflict',
      `Unable to allocate inventory: Unable to create allocation for 'VCPU' on resource provider '${CN}'. The requested amount would exceed the capacity.`);
  });

  it('counts what other consumers hold', () => {
    const held = { providers: { [CN]: [...cn1, providerChanged({ [OTHER]: { VCPU: 5 } }, 2)] } };
    given(held).when(claim([part(VM, { [CN]: { VCPU: 5 } })])).thenThrows('conflict',
      `Unable to allocate inventory: Unable to create allocation for 'VCPU' on resource provider '${CN}'. The requested amount would exceed the capacity.`);
    given(held).when(claim([part(VM, { [CN]: { VCPU: 4 } })])).then({
      consumers: { [VM]: [replaced({ [CN]: { VCPU: 4 } }, 1)] },
      providers: { [CN]: [providerChanged({ [VM]: { VCPU: 4 } }, 3)] },
    });
  });

  it('keeps the project, user, type and mappings it was given', () => {
    const mappings = { _NET: [CN] };
    given({ providers: { [CN]: cn1 } })
      .when(claim([part(VM, { [CN]: { VCPU: 1 } }, { projectId: 'p2', userId: 'u2', consumerType: 'INSTANCE', mappings })]))
      .then({
        consumers: { [VM]: [{ type: 'ConsumerAllocationsReplaced', data: {
          allocations: { [CN]: { VCPU: 1 } }, project_id: 'p2', user_id: 'u2', consumer_type: 'INSTANCE', mappings,
          written_order: [[CN, ['VCPU']]], generation: 1, v: 1 } }] },
        providers: { [CN]: [providerChanged({ [VM]: { VCPU: 1 } }, 2)] },
      });
  });

  it('records the order the claim listed providers and classes in, which stored (jsonb) data would lose', () => {
    const decision = decideClaim(claim([part(VM, { [DISK]: { DISK_GB: 10 }, [CN]: { VCPU: 1, DISK_GB: 10 } })]), stateOf({ providers: { [CN]: cn1, [DISK]: disk } }));
    expect(decision.consumers[VM][0]).toMatchObject({ data: { written_order: [[DISK, ['DISK_GB']], [CN, ['VCPU', 'DISK_GB']]] } });
  });

  it('an empty set creates the consumer at generation 0 and touches no provider (upstream keeps that record)', () => {
    given({}).when(claim([part(VM, {}, { expectedGeneration: null })])).then({
      consumers: { [VM]: [replaced({}, 0)] },
      providers: {},
    });
  });
});

describe('ClaimAllocations: inventory rules', () => {
  const at = (allocations: ConsumerAllocations) => given({ providers: { [CN]: cn1, [DISK]: disk } }).when(claim([part(VM, allocations)]));

  it('refuses amounts off min_unit, max_unit or step_size', () => {
    const violated = `Unable to allocate inventory: Unable to create allocation for 'DISK_GB' on resource provider '${CN}'. The requested amount would violate inventory constraints.`;
    at({ [CN]: { DISK_GB: 15 } }).thenThrows('conflict', violated);
    at({ [CN]: { DISK_GB: 60 } }).thenThrows('conflict', violated);
  });

  it('refuses a class the provider has no inventory of, naming class and provider', () => {
    at({ [CN]: { VCPU: 1, MEMORY_MB: 64 } })
      .thenThrows('conflict', `Unable to allocate inventory: Inventory for 'MEMORY_MB' on resource provider '${CN}' invalid.`);
  });

  it('refuses a provider with none of the classes, naming every class in id order', () => {
    at({ [CN]: { VCPU: 1 }, [DISK]: { SRIOV_NET_VF: 1, MEMORY_MB: 64 } })
      .thenThrows('conflict', `Unable to allocate inventory: Inventory for 'VCPU, MEMORY_MB, SRIOV_NET_VF' on resource provider '${DISK}' invalid.`);
  });

  it('refuses an unknown class with a 400 worded per endpoint', () => {
    const state = given({ providers: { [CN]: cn1 } });
    const body = [part(VM, { [CN]: { VCPU: 1, CUSTOM_PONY: 1 } })];
    state.when(claim(body, { unknownClasses: ['CUSTOM_PONY'] }))
      .thenThrows('bad_request', `Unable to allocate inventory for consumer ${VM}: No such resource class CUSTOM_PONY.`);
    state.when(claim(body, { unknownClasses: ['CUSTOM_PONY'], form: 'batch' }))
      .thenThrows('bad_request', 'Unable to allocate inventory No such resource class CUSTOM_PONY.');
    state.when(claim(body, { unknownClasses: ['CUSTOM_PONY'], form: 'reshape' }))
      .thenThrows('bad_request', 'malformed reshaper data: No such resource class CUSTOM_PONY.');
  });

  it('refuses a provider that does not exist (or was deleted) before looking at classes', () => {
    const gone = [...cn2, { type: 'ResourceProviderDeleted', data: { generation: 1, v: 1 } } as ProviderEvent];
    given({ providers: { [CN]: cn1, [CN2]: gone } })
      .when(claim([part(VM, { [CN]: { VCPU: 1 }, [CN2]: { CUSTOM_PONY: 1 } })], { unknownClasses: ['CUSTOM_PONY'] }))
      .thenThrows('bad_request', `Allocation for resource provider '${CN2}' that does not exist.`);
  });
});

describe('ClaimAllocations: consumer generations (1.28+)', () => {
  const existing = { providers: { [CN]: [...cn1, providerChanged({ [VM]: { VCPU: 2 } }, 2)] }, consumers: { [VM]: [replaced({ [CN]: { VCPU: 2 } }, 1)] } };

  it('refuses null for a consumer that exists, and a number for one that does not', () => {
    given(existing).when(claim([part(VM, { [CN]: { VCPU: 3 } }, { expectedGeneration: null })]))
      .thenThrows('conflict', 'consumer generation conflict - expected 1 but got None', ErrorCode.CONCURRENT_UPDATE);
    given({ providers: { [CN]: cn1 } }).when(claim([part(VM, { [CN]: { VCPU: 3 } }, { expectedGeneration: 5 })]))
      .thenThrows('conflict', 'consumer generation conflict - expected null but got 5', ErrorCode.CONCURRENT_UPDATE);
  });

  it('checks generations before anything else', () => {
    given(existing).when(claim([part(VM, { [OTHER]: { VCPU: 3 } }, { expectedGeneration: 7 })]))
      .thenThrows('conflict', 'consumer generation conflict - expected 1 but got 7', ErrorCode.CONCURRENT_UPDATE);
  });

  it('does not count the consumer\'s own current holding against the new one', () => {
    given(existing).when(claim([part(VM, { [CN]: { VCPU: 9 } }, { expectedGeneration: 1 })])).then({
      consumers: { [VM]: [replaced({ [CN]: { VCPU: 9 } }, 2)] },
      providers: { [CN]: [providerChanged({ [VM]: { VCPU: 9 } }, 3)] },
    });
  });

  it('below 1.28 nothing is checked, and the type of an existing consumer is kept', () => {
    const typed = { ...existing, consumers: { [VM]: [replaced({ [CN]: { VCPU: 2 } }, 4, { consumer_type: 'INSTANCE' })] } };
    given(typed).when(claim([part(VM, { [CN]: { VCPU: 2 } }, { projectId: 'p2' })])).then({
      consumers: { [VM]: [replaced({ [CN]: { VCPU: 2 } }, 5, { project_id: 'p2', consumer_type: 'INSTANCE' })] },
      providers: { [CN]: [providerChanged({ [VM]: { VCPU: 2 } }, 3)] },
    });
  });
});

describe('ClaimAllocations: moving and emptying', () => {
  const onCn = { providers: { [CN]: [...cn1, providerChanged({ [VM]: { VCPU: 2 } }, 2)], [CN2]: cn2 }, consumers: { [VM]: [replaced({ [CN]: { VCPU: 2 } }, 1)] } };

  it('a move releases the old provider without moving its generation, as upstream', () => {
    given(onCn).when(claim([part(VM, { [CN2]: { VCPU: 4 } }, { expectedGeneration: 1 })])).then({
      consumers: { [VM]: [replaced({ [CN2]: { VCPU: 4 } }, 2)] },
      providers: { [CN]: [providerChanged({ [VM]: {} }, 2)], [CN2]: [providerChanged({ [VM]: { VCPU: 4 } }, 2)] },
    });
  });

  it('an empty set removes the consumer and moves the generation of what it held', () => {
    given(onCn).when(claim([part(VM, {}, { expectedGeneration: 1 })])).then({
      consumers: { [VM]: [removed(2)] },
      providers: { [CN]: [providerChanged({ [VM]: {} }, 3)] },
    });
  });

  it('one batch can hand a holding from one consumer to another on a full provider', () => {
    const full = { providers: { [CN2]: [...cn2, providerChanged({ [VM]: { VCPU: 4 } }, 2)] }, consumers: { [VM]: [replaced({ [CN2]: { VCPU: 4 } }, 1)] } };
    given(full).when(claim([part(VM, {}), part(VM2, { [CN2]: { VCPU: 4 } })], { form: 'batch' })).then({
      consumers: { [VM]: [removed(2)], [VM2]: [replaced({ [CN2]: { VCPU: 4 } }, 1)] },
      providers: { [CN2]: [providerChanged({ [VM]: {}, [VM2]: { VCPU: 4 } }, 3)] },
    });
  });

  it('a batch is all or nothing: two claims that fit alone but not together are refused', () => {
    given({ providers: { [CN2]: cn2 } })
      .when(claim([part(VM, { [CN2]: { VCPU: 3 } }), part(VM2, { [CN2]: { VCPU: 2 } })], { form: 'batch' }))
      .thenThrows('conflict', `Unable to allocate inventory: Unable to create allocation for 'VCPU' on resource provider '${CN2}'. The requested amount would exceed the capacity.`);
  });

  it('an empty set for a consumer holding nothing changes only its attributes, at the same generation', () => {
    const bare = { consumers: { [VM]: [replaced({}, 0)] } };
    given(bare).when(claim([part(VM, {}, { expectedGeneration: 0 })])).then({ consumers: { [VM]: [] }, providers: {} });
    given(bare).when(claim([part(VM, {}, { expectedGeneration: 0, userId: 'u9' })])).then({
      consumers: { [VM]: [replaced({}, 0, { user_id: 'u9' })] }, providers: {},
    });
  });
});

describe('RemoveAllocations (DELETE /allocations/{consumer})', () => {
  it('releases every holding without moving provider generations', () => {
    const held = {
      providers: { [CN]: [...cn1, providerChanged({ [VM]: { VCPU: 2 } }, 2)], [DISK]: [...disk, providerChanged({ [VM]: { DISK_GB: 5 } }, 2)] },
      consumers: { [VM]: [replaced({ [CN]: { VCPU: 2 }, [DISK]: { DISK_GB: 5 } }, 1)] },
    };
    given(held).when({ type: 'RemoveAllocations', consumerUuid: VM }).then({
      consumers: { [VM]: [removed(1)] },
      providers: { [CN]: [providerChanged({ [VM]: {} }, 2)], [DISK]: [providerChanged({ [VM]: {} }, 2)] },
    });
  });

  it('answers 404 for a consumer that holds nothing', () => {
    given({ consumers: { [VM]: [replaced({}, 0)] } }).when({ type: 'RemoveAllocations', consumerUuid: VM })
      .thenThrows('not_found', `No allocations for consumer '${VM}'`);
    given({}).when({ type: 'RemoveAllocations', consumerUuid: OTHER }).thenThrows('not_found', `No allocations for consumer '${OTHER}'`);
  });
});

describe('provider usages follow the provider side of claims', () => {
  it('sums every consumer\'s holding and forgets released ones', () => {
    const events = [...cn1, providerChanged({ [VM]: { VCPU: 2, DISK_GB: 10 } }, 2), providerChanged({ [VM2]: { VCPU: 3 } }, 3), providerChanged({ [VM]: {} }, 3)];
    const state = stateOf({ providers: { [CN]: events } }).providers[CN];
    expect(state).toMatchObject({ generation: 3, usages: { VCPU: 3 }, allocations: { [VM2]: { VCPU: 3 } } });
  });
});
