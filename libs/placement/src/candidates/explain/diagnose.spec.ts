import { ActiveProvider, inventoryWithDefaults } from '#domain/index.js';
import { CandidateRequest, RequestGroup } from '../request.js';
import { firstExclusion, groupFunnel, ProviderStates } from './diagnose.js';

function provider(uuid: string, fields: Partial<ActiveProvider> = {}): ActiveProvider {
  return {
    status: 'active', uuid, name: uuid, parentUuid: null, generation: 1, inventories: {}, traits: [], aggregates: [], usages: {}, allocations: {},
    ...fields,
  };
}

const group = (fields: Partial<RequestGroup> = {}): RequestGroup => ({
  suffix: '', resources: [['VCPU', 4]], requiredTraits: [], forbiddenTraits: [], memberOf: [], forbiddenAggregates: [], inTree: null, ...fields,
});

const request = (fields: Partial<CandidateRequest> = {}): CandidateRequest => ({
  groups: [], limit: null, groupPolicy: null, rootRequired: [], rootForbidden: [], sameSubtrees: [], nestedAware: true, ...fields,
});

const cpu = (total: number, extra: object = {}) => ({ VCPU: inventoryWithDefaults({ total, ...extra }) });

const states: ProviderStates = new Map([
  ['full', provider('full', { inventories: cpu(8), usages: { VCPU: 6 } })],
  ['ok', provider('ok', { inventories: cpu(8), traits: ['HW_CPU_X86_AVX2'], aggregates: ['A'] })],
  ['plain', provider('plain', { inventories: cpu(8) })],
  ['disk', provider('disk', { inventories: { DISK_GB: inventoryWithDefaults({ total: 100 }) } })],
  ['child', provider('child', { parentUuid: 'ok', inventories: cpu(16) })],
]);

describe('firstExclusion', () => {
  it('names the class a provider has no inventory of', () => {
    expect(firstExclusion(states, 'disk', group(), request())).toEqual({ step: 'resources', reason: 'has no inventory of VCPU' });
  });

  it('spells out the capacity arithmetic', () => {
    expect(firstExclusion(states, 'full', group(), request())).toEqual({
      step: 'capacity', reason: 'VCPU needs 4, 2 free (total 8, reserved 0, ratio 1.0, used 6)',
    });
  });

  it('counts reserved and the allocation ratio', () => {
    const s: ProviderStates = new Map([['p', provider('p', { inventories: cpu(4, { reserved: 2, allocation_ratio: 1.5 }), usages: { VCPU: 1 } })]]);
    expect(firstExclusion(s, 'p', group(), request())?.reason).toBe('VCPU needs 4, 2 free (total 4, reserved 2, ratio 1.5, used 1)');
  });

  it('names unit limits before free room', () => {
    const s: ProviderStates = new Map([['p', provider('p', { inventories: cpu(8, { step_size: 3 }) })]]);
    expect(firstExclusion(s, 'p', group(), request())?.reason).toBe('VCPU needs 4, not a multiple of step_size 3');
  });

  it('names a missing required trait and a forbidden one', () => {
    expect(firstExclusion(states, 'plain', group({ requiredTraits: [['HW_CPU_X86_AVX2']] }), request()))
      .toEqual({ step: 'traits', reason: 'lacks HW_CPU_X86_AVX2' });
    expect(firstExclusion(states, 'ok', group({ forbiddenTraits: ['HW_CPU_X86_AVX2'] }), request()))
      .toEqual({ step: 'traits', reason: 'has forbidden HW_CPU_X86_AVX2' });
  });

  it('names the aggregates a provider is in none of', () => {
    expect(firstExclusion(states, 'plain', group({ memberOf: [['A', 'B']] }), request()))
      .toEqual({ step: 'aggregates', reason: 'in none of [A, B]' });
  });

  it('judges in_tree by the roots of the trees', () => {
    expect(firstExclusion(states, 'child', group({ inTree: 'ok' }), request())).toBeNull();
    expect(firstExclusion(states, 'plain', group({ inTree: 'child' }), request()))
      .toEqual({ step: 'in_tree', reason: 'not in the tree of child' });
  });

  it('judges root_required on the root, not the provider', () => {
    const wanted = request({ rootRequired: ['HW_CPU_X86_AVX2'] });
    expect(firstExclusion(states, 'child', group(), wanted)).toBeNull();
    expect(firstExclusion(states, 'plain', group(), wanted)).toEqual({ step: 'root_required', reason: 'root plain lacks HW_CPU_X86_AVX2' });
  });

  it('lets the unsuffixed group take part of its classes from a provider, not a granular one', () => {
    const both = group({ resources: [['VCPU', 1], ['DISK_GB', 10]] });
    expect(firstExclusion(states, 'disk', both, request())).toBeNull();
    expect(firstExclusion(states, 'disk', { ...both, suffix: '1' }, request())).toEqual({ step: 'resources', reason: 'has no inventory of VCPU' });
  });

  it('says so for an unknown provider', () => {
    expect(firstExclusion(states, 'nobody', group(), request())).toEqual({ step: 'resources', reason: 'no such provider' });
  });
});

describe('groupFunnel', () => {
  it('counts what each step leaves of what the last left', () => {
    const counts = groupFunnel(states, group({ requiredTraits: [['HW_CPU_X86_AVX2']], memberOf: [['A']] }), request());
    expect(counts).toEqual([
      { step: 'resources', remaining: 4 },
      { step: 'capacity', remaining: 3 },
      { step: 'traits', remaining: 1 },
      { step: 'aggregates', remaining: 1 },
      { step: 'in_tree', remaining: 1 },
      { step: 'root_required', remaining: 1 },
    ]);
  });
});
