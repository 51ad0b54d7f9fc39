import { CandidatesAnswer, pickAllocation } from './weigher.js';

const ram = (capacity: number, used: number) => ({ MEMORY_MB: { capacity, used } });

/** Flat hosts h0..h(n-1) with the given free RAM, one allocation request each. */
function flat(free: number[]): CandidatesAnswer {
  return {
    allocation_requests: free.map((_f, i) => ({ allocations: { [`h${i}`]: { resources: { VCPU: 1 } } } })),
    provider_summaries: Object.fromEntries(free.map((f, i) => [`h${i}`, { resources: ram(8192, 8192 - f), root_provider_uuid: `h${i}` }])),
  };
}

describe('pickAllocation', () => {
  it('picks among the five hosts with the most free RAM, as the RAM weigher and host_subset_size=5 do', () => {
    const answer = flat([100, 900, 800, 50, 700, 600, 500, 400]);
    const picked = new Set<string>();
    for (let x = 0; x < 1; x += 0.05) picked.add(Object.keys(pickAllocation(answer, () => x)!)[0]);
    expect([...picked].sort()).toEqual(['h1', 'h2', 'h4', 'h5', 'h6']);
  });

  it('weighs a tree by the free RAM of all its providers and claims its first allocation request', () => {
    const answer: CandidatesAnswer = {
      allocation_requests: [
        { allocations: { a0: { resources: { VCPU: 1 } }, a: { resources: { DISK_GB: 1 } } } },
        { allocations: { b0: { resources: { VCPU: 1 } }, b: { resources: { DISK_GB: 1 } } } },
        { allocations: { b1: { resources: { VCPU: 1 } }, b: { resources: { DISK_GB: 1 } } } },
      ],
      provider_summaries: {
        a: { resources: {}, root_provider_uuid: 'a' }, a0: { resources: ram(4096, 0), root_provider_uuid: 'a' },
        b: { resources: {}, root_provider_uuid: 'b' }, b0: { resources: ram(4096, 1024), root_provider_uuid: 'b' },
        b1: { resources: ram(4096, 1024), root_provider_uuid: 'b' },
      },
    };
    // b has 6144 MB free over its two NUMA nodes, a 4096: with a subset of one, b wins.
    expect(pickAllocation(answer, () => 0.99, 1)).toEqual(answer.allocation_requests[1].allocations);
  });

  it('keeps the answer order between hosts of equal weight, and finds nothing in an empty answer', () => {
    expect(Object.keys(pickAllocation(flat([10, 10, 10]), () => 0, 1)!)).toEqual(['h0']);
    expect(pickAllocation({ allocation_requests: [], provider_summaries: {} }, () => 0)).toBeNull();
  });
});
