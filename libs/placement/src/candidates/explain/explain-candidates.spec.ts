import { ActiveProvider, inventoryWithDefaults } from '#domain/index.js';
import { NameCatalog } from '../index/name-catalog.js';
import { ProviderIndex } from '../index/provider-index.js';
import { CandidateRequest, RequestGroup } from '../request.js';
import { explainCandidates } from './explain-candidates.js';

const provider = (uuid: string, fields: Partial<ActiveProvider>): ActiveProvider => ({
  status: 'active', uuid, name: uuid, parentUuid: null, generation: 1, inventories: {}, traits: [], aggregates: [], usages: {}, allocations: {}, ...fields,
});

const group = (suffix: string, fields: Partial<RequestGroup> = {}): RequestGroup => ({
  suffix, resources: [['VCPU', 2]], requiredTraits: [], forbiddenTraits: [], memberOf: [], forbiddenAggregates: [], inTree: null, ...fields,
});

const request = (groups: RequestGroup[], fields: Partial<CandidateRequest> = {}): CandidateRequest => ({
  groups, limit: null, groupPolicy: null, rootRequired: [], rootForbidden: [], sameSubtrees: [], nestedAware: true, ...fields,
});

function world() {
  const index = new ProviderIndex();
  const names = new NameCatalog();
  names.addClass('VCPU');
  names.addTrait('CUSTOM_FAST');
  const vcpu = { VCPU: inventoryWithDefaults({ total: 4 }) };
  index.put('a', provider('a', { inventories: vcpu, traits: ['CUSTOM_FAST'] }));
  index.put('b', provider('b', { inventories: vcpu }));
  return { index, names };
}

const OPTIONS = { randomize: false, maxCandidates: null };

describe('explainCandidates', () => {
  it('counts every candidate, whatever limit asked for', () => {
    const { index, names } = world();
    const answer = explainCandidates(index, names, request([group('')], { limit: 1 }), OPTIONS, null);
    expect(answer.candidates).toBe(2);
    expect(answer.groups).toEqual([{ suffix: '', steps: expect.arrayContaining([{ step: 'capacity', remaining: 2 }]) }]);
    expect(answer.provider).toBeUndefined();
  });

  it('tells a provider in the candidates from one the combination left out', () => {
    const { index, names } = world();
    // Group 1 only on a, isolated from group 2, and b is another tree: no candidate can use b.
    const both = request([group('1', { requiredTraits: [['CUSTOM_FAST']] }), group('2')], { groupPolicy: 'isolate' });
    const answer = explainCandidates(index, names, both, OPTIONS, 'b');
    expect(answer.candidates).toBe(0);
    expect(answer.provider).toEqual({
      uuid: 'b', exists: true, groups: [
        { suffix: '1', in_candidates: false, excluded_by: { step: 'traits', reason: 'lacks CUSTOM_FAST' }, left_out_by_combination: false },
        { suffix: '2', in_candidates: false, excluded_by: null, left_out_by_combination: true },
      ],
    });
    const alone = explainCandidates(index, names, request([group('2')]), OPTIONS, 'b');
    expect(alone.provider!.groups).toEqual([{ suffix: '2', in_candidates: true, excluded_by: null, left_out_by_combination: false }]);
  });

  /** Upstream's worst case: single-unit devices under one node, one group per device, isolated (8! candidates). */
  function wideTree(width: number) {
    const index = new ProviderIndex();
    const names = new NameCatalog();
    names.addClass('PCI_DEVICE');
    index.put('cn', provider('cn', {}));
    for (let i = 0; i < width; i++) {
      index.put(`dev${i}`, provider(`dev${i}`, { parentUuid: 'cn', inventories: { PCI_DEVICE: inventoryWithDefaults({ total: 1 }) } }));
    }
    const groups = Array.from({ length: width }, (_, i) => group(String(i + 1), { resources: [['PCI_DEVICE', 1]] }));
    return { index, names, wide: request(groups, { groupPolicy: 'isolate' }) };
  }

  it('generates no more than max_allocation_candidates, and says so', () => {
    const { index, names, wide } = wideTree(8);
    const answer = explainCandidates(index, names, wide, { randomize: false, maxCandidates: 100 }, 'dev7');
    expect(answer.candidates).toBe(100);
    expect(answer.stopped_by).toBe('max_allocation_candidates');
    const whole = explainCandidates(index, names, wide, OPTIONS, null);
    expect(whole.candidates).toBe(40320);
    expect(whole.stopped_by).toBeNull();
  });

  it('stops at its deadline with what it has, and cannot tell then what the combination left out', () => {
    const { index, names, wide } = wideTree(10);
    const started = performance.now();
    const answer = explainCandidates(index, names, wide, OPTIONS, 'dev9', started + 50);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(answer.stopped_by).toBe('time_budget');
    expect(answer.candidates).toBeLessThan(3628800);
    for (const verdict of answer.provider!.groups) expect(verdict.in_candidates || verdict.left_out_by_combination === null).toBe(true);
  });
});
