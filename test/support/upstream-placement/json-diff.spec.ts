import { canonical, jsonDifferences } from './json-diff.js';
import { limitedCandidates, normalize } from './normalize.js';

describe('jsonDifferences', () => {
  it('names the path of a changed value, ignoring key order', () => {
    const left = { allocations: { rp1: { resources: { VCPU: 2, MEMORY_MB: 512 } } }, consumer_generation: 1 };
    const right = { consumer_generation: 1, allocations: { rp1: { resources: { MEMORY_MB: 512, VCPU: 4 } } } };
    expect(jsonDifferences(left, right)).toEqual(['$.allocations.rp1.resources.VCPU: 2 != 4']);
  });

  it('reports a key on one side only', () => {
    expect(jsonDifferences({ a: 1 }, { a: 1, b: null })).toEqual(['$.b: (absent) != null']);
  });

  it('compares lists of names as sets, saying what each side lacks', () => {
    expect(jsonDifferences({ traits: ['A', 'B', 'C'] }, { traits: ['A', 'C', 'D'] })).toEqual(['$.traits: only left ["B"], only right ["D"]']);
    expect(jsonDifferences(['A', 'B'], ['B', 'A'])).toEqual(['$: same items, order ["A","B"] != ["B","A"]']);
  });

  it('matches providers by uuid, so one missing provider is one line', () => {
    const left = [{ uuid: 'u1', generation: 1 }, { uuid: 'u2', generation: 3 }, { uuid: 'u3', generation: 0 }];
    const right = [{ uuid: 'u1', generation: 1 }, { uuid: 'u3', generation: 1 }];
    expect(jsonDifferences(left, right)).toEqual(['$[uuid=u2]: {"generation":3,"uuid":"u2"} != (absent)', '$[uuid=u3].generation: 0 != 1']);
  });

  it('shows two long texts from where they part', () => {
    const common = 'x'.repeat(300);
    const [line] = jsonDifferences(`${common}left`, `${common}right`);
    expect(line).toBe(`$: "…${'x'.repeat(40)}left" != "…${'x'.repeat(40)}right"`);
  });
});

describe('normalize', () => {
  it('sorts what upstream leaves unordered and drops request ids', () => {
    const body = {
      resource_providers: [{ uuid: 'b', links: [{ rel: 'self' }, { rel: 'inventories' }] }, { uuid: 'a', links: [] }],
      errors: [{ status: 400, detail: 'Bad\n\n  request', request_id: 'req-1' }],
    };
    expect(normalize('/resource_providers', body)).toEqual({
      resource_providers: [{ uuid: 'a', links: [] }, { uuid: 'b', links: [{ rel: 'self' }, { rel: 'inventories' }] }],
      errors: [{ status: 400, detail: 'Bad request' }],
    });
  });

  it('sorts allocation requests, their old-style allocation lists, mappings and summary traits', () => {
    const body = {
      allocation_requests: [
        { allocations: [{ resource_provider: { uuid: 'z' } }, { resource_provider: { uuid: 'a' } }] },
        { allocations: [{ resource_provider: { uuid: 'b' } }], mappings: { '': ['y', 'x'] } },
      ],
      provider_summaries: { a: { traits: ['T2', 'T1'] } },
    };
    const out = normalize('/allocation_candidates?resources=VCPU:1', body);
    expect(out.allocation_requests.map(canonical)).toEqual([...out.allocation_requests.map(canonical)].sort());
    expect(out.allocation_requests.find((r: any) => r.allocations.length === 2).allocations.map((a: any) => a.resource_provider.uuid)).toEqual(['a', 'z']);
    expect(out.allocation_requests.find((r: any) => r.mappings).mappings['']).toEqual(['x', 'y']);
    expect(out.provider_summaries.a.traits).toEqual(['T1', 'T2']);
  });
});

describe('limitedCandidates', () => {
  it('keeps the count and what the unlimited answer does not offer', () => {
    const full = { allocation_requests: [{ allocations: { a: 1 } }, { allocations: { b: 1 } }], provider_summaries: { a: {}, b: {} } };
    const limited = { allocation_requests: [{ allocations: { b: 1 } }, { allocations: { c: 1 } }], provider_summaries: { b: {}, c: {} } };
    expect(limitedCandidates(limited, full)).toEqual({
      allocation_requests_count: 2,
      allocation_requests_not_offered_without_limit: ['{"allocations":{"c":1}}'],
      provider_summaries_not_offered_without_limit: ['c'],
    });
  });
});
