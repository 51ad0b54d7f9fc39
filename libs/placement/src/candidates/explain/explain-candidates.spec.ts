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
});
