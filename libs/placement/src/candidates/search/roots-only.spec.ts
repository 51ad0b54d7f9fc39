import { deviceChildren, DEVICE_WRITES, FLAT_REQUESTS, flatCatalog, flatCloud, seen } from '#test/support/candidate-fixtures.js';
import { seededRandom } from '#test/support/seeded-random.js';
import { indexOf, PlainProvider } from '../index/plain-index.js';
import { ProviderIndex } from '../index/provider-index.js';
import { CandidateRequest, SearchOptions } from '../request.js';
import { KeptResults } from '../reuse/kept-results.js';
import { candidateRequest } from './request-builder.js';
import { CandidateResult, searchCandidates } from './search.js';

const names = flatCatalog();
const OPTIONS: SearchOptions = { randomize: false, maxCandidates: null };

/**
 * A tree that gives nothing, whose child holds every class the flavors ask, all used: the same
 * cloud with it answers through the combination of trees, without it as a flat cloud does.
 */
const DECOY: PlainProvider[] = [
  { uuid: 'zz-decoy' },
  {
    uuid: 'zz-decoy-child', parent: 'zz-decoy',
    inventories: { VCPU: { total: 1 }, MEMORY_MB: { total: 1024 }, DISK_GB: { total: 10 } }, used: { VCPU: 1, MEMORY_MB: 1024, DISK_GB: 10 },
  },
];

/** Reads from `index`, writes to it and to `twin`: the twin sees every write the same. */
function writingBoth(index: ProviderIndex, twin: ProviderIndex): ProviderIndex {
  return new Proxy(index, {
    get(target, property) {
      if (property === 'put') return (uuid: string, state: Parameters<ProviderIndex['put']>[1]) => { target.put(uuid, state); twin.put(uuid, state); };
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const REQUESTS: [string, CandidateRequest][] = Object.entries(FLAT_REQUESTS).flatMap(([name, request]) => [
  [name, request],
  [`${name} below 1.29`, { ...request, nestedAware: false }],
  [`${name} in_tree`, candidateRequest([{ ...request.groups[0], inTree: 'c0004' }])],
]);

/** An answer as sets: the order of candidates is the walk's, which upstream does not fix either. */
const asSets = (result: CandidateResult) => {
  const { candidates, summaries } = seen(result);
  return { candidates: [...candidates].sort(), summaries: [...summaries].sort() };
};

describe('a lone group only roots can meet, in a cloud with trees', () => {
  it('answers as the combination of trees would, after every kind of write, and so do kept answers patched', async () => {
    const random = seededRandom(20261130);
    const cloud = [...flatCloud(40), ...deviceChildren(40)];
    const index = indexOf(cloud);
    const combined = indexOf([...cloud, ...DECOY]);
    const writes = writingBoth(index, combined);
    // One store per question: a server keeps fewer than this test asks in a round.
    const kept = new Map<string, KeptResults>();
    let [streamed, patched] = [0, 0];
    for (let step = 0; step < 150; step++) {
      random.pick(DEVICE_WRITES)(writes, random);
      for (const [name, unlimited] of REQUESTS) {
        const all = searchCandidates(index, names, unlimited, OPTIONS);
        expect({ name, step, ...asSets(all) }).toEqual({ name, step, ...asSets(searchCandidates(combined, names, unlimited, OPTIONS)) });
        // Breadth-first visits roots in turn: where roots alone meet the group, each has one candidate, so the same walk.
        if (all.walked) expect(seen(searchCandidates(index, names, unlimited, { ...OPTIONS, strategy: 'breadth-first' }))).toEqual(seen(all));
        for (const request of [unlimited, { ...unlimited, limit: 7 }]) {
          const fresh = searchCandidates(index, names, request, OPTIONS);
          // A limit cuts the walk: the first candidates of the whole answer, with their trees' summaries (before 1.29 their own).
          const providers = new Set(fresh.candidates.map((c) => c.allocations[0].provider));
          const roots = new Set([...providers].map((node) => node.root));
          expect(seen(fresh)).toEqual({
            candidates: seen(all).candidates.slice(0, request.limit ?? undefined),
            summaries: all.summaries.filter((node) => (request.nestedAware ? roots.has(node.root) : providers.has(node))).map((node) => node.uuid),
          });
          if (fresh.walked) streamed++;
          let searched = false;
          const slot = `${name} ${request.limit}`;
          if (!kept.has(slot)) kept.set(slot, new KeptResults());
          const answer = await kept.get(slot)!.answer(index, names, request, OPTIONS, async () => {
            searched = true;
            return fresh;
          });
          if (!searched && answer !== fresh) patched++;
          expect({ name, step, limit: request.limit, ...seen(answer) }).toEqual({ name, step, limit: request.limit, ...seen(fresh) });
        }
      }
    }
    expect(streamed).toBeGreaterThan(1000);
    expect(patched).toBeGreaterThan(1000);
  });
});
