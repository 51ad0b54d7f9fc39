import { compareStates } from './compare-states.js';
import { UpstreamState } from './upstream-state.js';

const T = '2025-01-02T03:04:05.123Z';
const state: UpstreamState = {
  revision: 'a082b8bb98d0',
  resourceClasses: [{ name: 'CUSTOM_A', modifiedAt: T }],
  traits: [],
  providers: [{
    uuid: 'rp', name: 'cn1', generation: 3, parentUuid: null, modifiedAt: T, inventoriesModifiedAt: null,
    inventories: { VCPU: { total: 8, reserved: 0, min_unit: 1, max_unit: 8, step_size: 1, allocation_ratio: 16 } },
    traits: ['A', 'B'], aggregates: [],
  }],
  consumers: [{ uuid: 'c', projectId: 'p', userId: 'u', consumerType: null, generation: 1, allocations: { rp: { VCPU: 1 } }, modifiedAt: T }],
};

describe('compareStates', () => {
  it('finds an equal copy equal, whatever its key order and sub-second fractions', () => {
    const copy: UpstreamState = {
      ...state,
      providers: [{ ...state.providers[0], traits: ['B', 'A'], modifiedAt: '2025-01-02T03:04:05.999Z' }],
    };
    expect(compareStates(state, copy)).toEqual([]);
  });

  it('names each difference by entity and field', () => {
    const other: UpstreamState = {
      ...state,
      resourceClasses: [],
      providers: [{ ...state.providers[0], generation: 4 }],
      consumers: [{ ...state.consumers[0], allocations: { rp: { VCPU: 2 } } }, { ...state.consumers[0], uuid: 'extra' }],
    };
    expect(compareStates(state, other)).toEqual([
      'resource class CUSTOM_A: in the source, missing in the target',
      'resource provider rp: generation 3 != 4',
      'consumer c: allocations {"rp":{"VCPU":1}} != {"rp":{"VCPU":2}}',
      'consumer extra: in the target, not in the source',
    ]);
  });

  it('names providers listed in another order', () => {
    const two = { ...state.consumers[0], allocations: { a: { VCPU: 1 }, b: { VCPU: 1 } } };
    const swapped = { ...two, allocations: { b: { VCPU: 1 }, a: { VCPU: 1 } } };
    expect(compareStates({ ...state, consumers: [two] }, { ...state, consumers: [swapped] }))
      .toEqual(['consumer c: provider order ["a","b"] != ["b","a"]']);
  });
});
