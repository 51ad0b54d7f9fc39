import type { Allocations } from '../claims-check.js';
import { seededRandom } from '../../support/seeded-random.js';
import { pickAllocation } from './weigher.js';

/** The parts of a GET /allocation_candidates answer (1.29+) a scheduler weighs. */
interface CandidatesAnswer {
  readonly allocation_requests: readonly { readonly allocations: Allocations }[];
  readonly provider_summaries: Readonly<Record<string, {
    readonly resources: Readonly<Record<string, { readonly capacity: number; readonly used: number }>>;
    readonly root_provider_uuid: string;
  }>>;
}

/** The answer as ours writes it. */
const pickFrom = (answer: CandidatesAnswer, random: () => number, subset?: number) => pickAllocation(Buffer.from(JSON.stringify(answer)), random, subset);

/** The weighing as first written, on the parsed answer with a sort of every host: what the text's reading must pick too. */
function reference(answer: CandidatesAnswer, random: () => number, subset: number): Allocations | null {
  const firstByHost = new Map<string, Allocations>();
  for (const request of answer.allocation_requests) {
    const anyProvider = Object.keys(request.allocations)[0];
    const host = answer.provider_summaries[anyProvider]?.root_provider_uuid ?? anyProvider;
    if (!firstByHost.has(host)) firstByHost.set(host, request.allocations);
  }
  if (firstByHost.size === 0) return null;
  const freeRam = new Map<string, number>();
  for (const summary of Object.values(answer.provider_summaries)) {
    const memory = summary.resources.MEMORY_MB;
    if (memory) freeRam.set(summary.root_provider_uuid, (freeRam.get(summary.root_provider_uuid) ?? 0) + memory.capacity - memory.used);
  }
  const hosts = [...firstByHost.keys()].sort((a, b) => (freeRam.get(b) ?? 0) - (freeRam.get(a) ?? 0));
  const best = hosts.slice(0, Math.min(subset, hosts.length));
  return firstByHost.get(best[Math.floor(random() * best.length)])!;
}

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
    for (let x = 0; x < 1; x += 0.05) picked.add(Object.keys(pickFrom(answer, () => x)!)[0]);
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
    expect(pickFrom(answer, () => 0.99, 1)).toEqual(answer.allocation_requests[1].allocations);
  });

  it('keeps the answer order between hosts of equal weight, and finds nothing in an empty answer', () => {
    expect(Object.keys(pickFrom(flat([10, 10, 10]), () => 0, 1)!)).toEqual(['h0']);
    expect(pickFrom({ allocation_requests: [], provider_summaries: {} }, () => 0)).toBeNull();
  });

  describe('the answer read as text', () => {
    /** Answers as ours writes them, as upstream's Python does (", " and ": "), and indented, with what 1.36 adds. */
    const texts = (answer: unknown) => [JSON.stringify(answer), pythonStyle(answer), JSON.stringify(answer, null, 2)].map((text) => Buffer.from(text));
    const pythonStyle = (value: unknown): string => (Array.isArray(value)
      ? `[${value.map(pythonStyle).join(', ')}]`
      : value !== null && typeof value === 'object'
        ? `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pythonStyle(v)}`).join(', ')}}`
        : JSON.stringify(value));

    /** An answer of `hosts` trees (a root and `numa` NUMA nodes holding the RAM) and a sharing provider of disk, as 1.36 writes it. */
    function answerOf(random: ReturnType<typeof seededRandom>, hosts: number, numa: number) {
      const allocation_requests = [];
      const provider_summaries: Record<string, unknown> = {
        'shared-disk': { resources: { DISK_GB: { capacity: 10_000, used: 0 } }, traits: ['MISC_SHARES_VIA_AGGREGATE'], parent_provider_uuid: null, root_provider_uuid: 'shared-disk' },
      };
      for (let h = 0; h < hosts; h++) {
        const root = `root-${h}`;
        provider_summaries[root] = { resources: { VCPU: { capacity: 16, used: random.int(16) } }, traits: ['HW_CPU_X86_AVX2', 'CUSTOM_"QUOTED"'], parent_provider_uuid: null, root_provider_uuid: root };
        for (let n = 0; n < numa; n++) {
          provider_summaries[`${root}-numa-${n}`] = {
            resources: { MEMORY_MB: { capacity: 8192, used: 512 * random.int(16) }, VCPU: { capacity: 8, used: 0 } },
            traits: [], parent_provider_uuid: root, root_provider_uuid: root,
          };
        }
        const holder = numa > 0 ? `${root}-numa-${random.int(numa)}` : root;
        if (numa === 0) (provider_summaries[root] as { resources: Record<string, unknown> }).resources.MEMORY_MB = { capacity: 4096, used: 256 * random.int(16) };
        // Some take their disk from a sharing provider, a root of its own: the request's host is its first provider's.
        const disk = random.int(2) === 0 ? { 'shared-disk': { resources: { DISK_GB: 10 } } } : {};
        allocation_requests.push({ allocations: { [holder]: { resources: { MEMORY_MB: 512 } }, [root]: { resources: { VCPU: 1 } }, ...disk }, mappings: { '': [holder, root] } });
      }
      return { allocation_requests, provider_summaries };
    }

    it('picks what the weighing of the parsed answer picks, however the answer is spaced', () => {
      for (let seed = 1; seed <= 40; seed++) {
        // xorshift's first draws from a small seed are small: a seed of five digits.
        const random = seededRandom(10_007 * seed);
        const answer = answerOf(random, 2 + random.int(30), random.int(3)) as unknown as CandidatesAnswer;
        for (const text of texts(answer)) {
          for (const draw of [0, 0.21, 0.5, 0.99]) {
            for (const subset of [1, 5]) expect(pickAllocation(text, () => draw, subset)).toEqual(reference(answer, () => draw, subset));
          }
        }
      }
    });

    it('finds nothing in an empty answer', () => {
      for (const text of texts({ allocation_requests: [], provider_summaries: {} })) expect(pickAllocation(text, () => 0)).toBeNull();
    });
  });
});
