import type { ConsumerClaim } from '../allocation/claim.js';
import { ConsumerAllocations, ConsumerEvent } from '../consumer/consumer.events.js';
import { evolveConsumer, initialConsumerState } from '../consumer/consumer.state.js';
import { DomainError } from '../shared/domain-error.js';
import { AllocationsPatch, consumerNotFoundForPatch, mergeAllocationsPatch } from './allocations-patch.js';
import { mergePatch } from './merge-patch.js';

const VM = 'vm-1';
const RP1 = '11111111-1111-1111-1111-111111111111';
const RP2 = '22222222-2222-2222-2222-222222222222';

const replaced = (allocations: ConsumerAllocations, generation: number, consumer_type: string | null = 'INSTANCE'): ConsumerEvent => ({
  type: 'ConsumerAllocationsReplaced',
  data: { allocations, project_id: 'proj', user_id: 'user', consumer_type, generation, v: 1 },
});

function given(...events: ConsumerEvent[]) {
  const state = events.reduce(evolveConsumer, initialConsumerState());
  return {
    when(patch: AllocationsPatch) {
      const run = () => mergeAllocationsPatch(VM, state, patch);
      return {
        then: (expected: Partial<ConsumerClaim>) => expect(run()).toEqual({
          consumerUuid: VM, projectId: 'proj', userId: 'user', expectedGeneration: patch.consumer_generation, ...expected,
        }),
        thenThrows(kind: DomainError['kind'], detail: string) {
          expect(run).toThrow(DomainError);
          expect(() => run()).toThrow(expect.objectContaining({ kind, detail }) as unknown as Error);
        },
      };
    },
  };
}

const holding = replaced({ [RP1]: { VCPU: 2, MEMORY_MB: 1024 }, [RP2]: { DISK_GB: 20 } }, 3);

describe('a merge patch of a consumer allocations', () => {
  it('adds a class on a held provider and leaves every other class and provider as it was', () => {
    given(holding)
      .when({ consumer_generation: 3, allocations: { [RP1]: { resources: { NET_BW_EGR_KILOBIT_PER_SEC: 1000 } } } })
      .then({ allocations: { [RP1]: { VCPU: 2, MEMORY_MB: 1024, NET_BW_EGR_KILOBIT_PER_SEC: 1000 }, [RP2]: { DISK_GB: 20 } } });
  });

  it('adds a provider not held yet', () => {
    const rp3 = '33333333-3333-3333-3333-333333333333';
    given(holding)
      .when({ consumer_generation: 3, allocations: { [rp3]: { resources: { VCPU: 1 } } } })
      .then({ allocations: { [RP1]: { VCPU: 2, MEMORY_MB: 1024 }, [RP2]: { DISK_GB: 20 }, [rp3]: { VCPU: 1 } } });
  });

  it('sets a class to a new amount', () => {
    given(holding)
      .when({ consumer_generation: 3, allocations: { [RP1]: { resources: { VCPU: 4 } } } })
      .then({ allocations: { [RP1]: { VCPU: 4, MEMORY_MB: 1024 }, [RP2]: { DISK_GB: 20 } } });
  });

  it('removes a class with null, and a provider left with no class', () => {
    given(holding)
      .when({ consumer_generation: 3, allocations: { [RP1]: { resources: { VCPU: null } }, [RP2]: { resources: { DISK_GB: null } } } })
      .then({ allocations: { [RP1]: { MEMORY_MB: 1024 } } });
  });

  it('removes a whole provider with null', () => {
    given(holding)
      .when({ consumer_generation: 3, allocations: { [RP1]: null } })
      .then({ allocations: { [RP2]: { DISK_GB: 20 } } });
  });

  it('leaves nothing when every provider is removed, which the claim turns into removing the consumer', () => {
    given(holding).when({ consumer_generation: 3, allocations: { [RP1]: null, [RP2]: null } }).then({ allocations: {} });
  });

  it('changes the owners and the type, and keeps the allocations, when only they are patched', () => {
    given(holding)
      .when({ consumer_generation: 3, project_id: 'other', user_id: 'someone', consumer_type: 'MIGRATION' })
      .then({ allocations: { [RP1]: { VCPU: 2, MEMORY_MB: 1024 }, [RP2]: { DISK_GB: 20 } }, projectId: 'other', userId: 'someone', consumerType: 'MIGRATION' });
  });

  it('ignores a provider generation, as PUT does', () => {
    given(holding)
      .when({ consumer_generation: 3, allocations: { [RP2]: { generation: 99 } } })
      .then({ allocations: { [RP1]: { VCPU: 2, MEMORY_MB: 1024 }, [RP2]: { DISK_GB: 20 } } });
  });

  it('carries the generation the client sent, for the claim to check', () => {
    given(holding).when({ consumer_generation: 7 }).then({ allocations: { [RP1]: { VCPU: 2, MEMORY_MB: 1024 }, [RP2]: { DISK_GB: 20 } } });
  });

  it('patches a consumer kept with nothing (an empty claim) since it exists', () => {
    given(replaced({}, 0))
      .when({ consumer_generation: 0, allocations: { [RP1]: { resources: { VCPU: 1 } } } })
      .then({ allocations: { [RP1]: { VCPU: 1 } } });
  });

  it('never creates a consumer: one never seen, or removed, is not found', () => {
    given().when({ consumer_generation: 0, allocations: { [RP1]: { resources: { VCPU: 1 } } } })
      .thenThrows('not_found', consumerNotFoundForPatch(VM));
    given(holding, { type: 'ConsumerRemoved', data: { generation: 4, v: 1 } }).when({ consumer_generation: 4 })
      .thenThrows('not_found', consumerNotFoundForPatch(VM));
  });
});

describe('RFC 7396 MergePatch', () => {
  // The examples of RFC 7396 appendix A.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('merges %j with %j into %j', (target, patch, expected) => {
    const before = JSON.stringify(target);
    expect(mergePatch(target as any, patch as any)).toEqual(expected);
    expect(JSON.stringify(target)).toBe(before);
  });
});
