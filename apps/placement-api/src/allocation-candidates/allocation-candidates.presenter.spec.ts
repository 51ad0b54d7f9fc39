import { NameCatalog } from '#placement/candidates/index/name-catalog.js';
import { indexOf } from '#placement/candidates/index/plain-index.js';
import { candidateRequest, group } from '#placement/candidates/search/request-builder.js';
import { searchCandidates } from '#placement/candidates/search/search.js';
import { Version } from '../platform/microversion.js';
import { presentCandidates } from './allocation-candidates.presenter.js';

const index = indexOf([
  { uuid: 'cn', inventories: { VCPU: { total: 8, allocation_ratio: 2 }, MEMORY_MB: { total: 1024, reserved: 24 } }, used: { VCPU: 3 }, traits: ['HW_CPU_X86_AVX2'] },
  { uuid: 'numa', parent: 'cn', inventories: { SRIOV_NET_VF: { total: 4 } } },
]);
const request = candidateRequest([group('', { resources: [['VCPU', 1]] }), group('_NET', { resources: [['SRIOV_NET_VF', 2]] })]);
const result = searchCandidates(index, new NameCatalog(), request, { randomize: false, maxCandidates: null });
const at = (version: string) => JSON.parse(presentCandidates(result, request, Version.parse(version)).toString('latin1'));

describe('presentCandidates', () => {
  it('gives the list form before 1.12, ready for PUT /allocations of that time', () => {
    const body = at('1.11');
    expect(body.allocation_requests).toEqual([{ allocations: [
      { resource_provider: { uuid: 'cn' }, resources: { VCPU: 1 } },
      { resource_provider: { uuid: 'numa' }, resources: { SRIOV_NET_VF: 2 } },
    ] }]);
    // Only the requested classes, no traits, no tree.
    expect(body.provider_summaries).toEqual({
      cn: { resources: { VCPU: { capacity: 16, used: 3 } } },
      numa: { resources: { SRIOV_NET_VF: { capacity: 4, used: 0 } } },
    });
  });

  it('gives the dict form from 1.12, and mappings from 1.34', () => {
    expect(at('1.12').allocation_requests).toEqual([{ allocations: { cn: { resources: { VCPU: 1 } }, numa: { resources: { SRIOV_NET_VF: 2 } } } }]);
    expect(at('1.34').allocation_requests[0].mappings).toEqual({ '': ['cn'], _NET: ['numa'] });
  });

  it('adds traits at 1.17, every class at 1.27, parent and root at 1.29', () => {
    expect(at('1.17').provider_summaries.cn).toEqual({ resources: { VCPU: { capacity: 16, used: 3 } }, traits: ['HW_CPU_X86_AVX2'] });
    expect(at('1.27').provider_summaries.cn.resources).toEqual({ VCPU: { capacity: 16, used: 3 }, MEMORY_MB: { capacity: 1000, used: 0 } });
    expect(at('1.29').provider_summaries.numa).toEqual({
      resources: { SRIOV_NET_VF: { capacity: 4, used: 0 } }, traits: [], parent_provider_uuid: 'cn', root_provider_uuid: 'cn',
    });
  });

  it('follows a provider change in a summary it already rendered', () => {
    expect(at('1.39').provider_summaries.cn.resources.VCPU.used).toBe(3);
    const cn = index.get('cn')!;
    index.put('cn', { ...cn.state, usages: { VCPU: 5 } });
    expect(at('1.39').provider_summaries.cn.resources.VCPU.used).toBe(5);
  });

  it('answers an empty search with empty collections', () => {
    const none = presentCandidates({ candidates: [], summaries: [], explain: [] }, request, Version.parse('1.39'));
    expect(JSON.parse(none.toString())).toEqual({ allocation_requests: [], provider_summaries: {} });
  });
});
