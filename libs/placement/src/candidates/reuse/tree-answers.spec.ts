import { INDEX_WRITES, nestedTree, putChanged, REQUESTS, seen } from '#test/support/candidate-fixtures.js';
import { seededRandom } from '#test/support/seeded-random.js';
import { NameCatalog } from '../index/name-catalog.js';
import { indexOf } from '../index/plain-index.js';
import { SHARES_VIA_AGGREGATE } from '../index/provider-index.js';
import { SearchOptions } from '../request.js';
import { candidateRequest, group } from '../search/request-builder.js';
import { searchCandidates, searchSteps } from '../search/search.js';
import { TreeAnswers } from './tree-answers.js';

const names = new NameCatalog();
names.addTrait('CUSTOM_FOO');
const OPTIONS: SearchOptions = { randomize: false, maxCandidates: null };

describe('answers kept per tree (TreeAnswers)', () => {
  it('gives exactly what a search without them gives, after every kind of write, with and without a limit', () => {
    const random = seededRandom(20261127);
    const index = indexOf(Array.from({ length: 12 }, (_v, i) => nestedTree(i)).flat());
    // One store for every request and limit, as the server has: a root keeps a part per request.
    const answers = new TreeAnswers();
    const before = new Map<string, Set<unknown>>();
    let reused = 0;
    for (let step = 0; step < 300; step++) {
      random.pick(INDEX_WRITES)(index, random);
      for (const [name, request] of Object.entries(REQUESTS)) {
        for (const limit of [null, 1 + (step % 20)]) {
          const asked = { ...request, limit };
          const slot = `${name} ${limit === null ? 'all' : 'limited'}`;
          const kept = searchCandidates(index, names, asked, OPTIONS, answers);
          const fresh = searchCandidates(index, names, asked, OPTIONS);
          expect({ name, limit, ...seen(kept) }).toEqual({ name, limit, ...seen(fresh) });
          const parts = new Set(kept.trees?.map((slice) => slice.part));
          reused += [...parts].filter((part) => part && before.get(slot)?.has(part)).length;
          before.set(slot, new Set([...(before.get(slot) ?? []), ...parts]));
        }
      }
    }
    // The kept parts were really used, not rebuilt each time.
    expect(reused).toBeGreaterThan(1000);
  });

  it('reuses the candidates of trees nobody wrote to and searches anew the one a claim changed', () => {
    const index = indexOf([...nestedTree(0), ...nestedTree(1)]);
    const answers = new TreeAnswers();
    const request = REQUESTS.perfload;
    const first = searchCandidates(index, names, request, OPTIONS, answers);
    const numa = index.get('numa1_1')!;
    putChanged(index, numa.state, { usages: { VCPU: 1 } });
    const second = searchCandidates(index, names, request, OPTIONS, answers);
    expect(second.candidates.slice(0, 2)).toEqual(first.candidates.slice(0, 2));
    expect(second.candidates[0]).toBe(first.candidates[0]);
    expect(second.candidates[2]).not.toBe(first.candidates[2]);
    expect(second.trees!.map((s) => s.root.uuid)).toEqual(['cn0', 'cn1']);
  });

  it('keeps each request\'s part of a tree, so questions asked in turn between writes reuse the trees nobody wrote to', () => {
    const index = indexOf([...nestedTree(0), ...nestedTree(1)]);
    const dropped: unknown[] = [];
    const answers = new TreeAnswers((part) => dropped.push(part));
    const flavors = [REQUESTS.perfload, ...Object.values(REQUESTS).filter((r) => r !== REQUESTS.perfload).slice(0, 2)];
    const firsts = flavors.map((request) => searchCandidates(index, names, request, OPTIONS, answers));
    putChanged(index, index.get('numa1_1')!.state, { usages: { VCPU: 1 } });
    flavors.forEach((request, i) => {
      const again = searchCandidates(index, names, request, OPTIONS, answers);
      expect(seen(again)).toEqual(seen(searchCandidates(index, names, request, OPTIONS)));
      // cn0's tree was not written to: its part of each question is the one kept, whatever was asked in between.
      const part = (result: typeof again) => result.trees?.find((slice) => slice.root.uuid === 'cn0')?.part;
      if (part(firsts[i])) expect(part(again)).toBe(part(firsts[i]));
    });
    expect(flavors.filter((_r, i) => firsts[i].trees?.some((slice) => slice.root.uuid === 'cn0' && slice.part)).length).toBeGreaterThan(1);
    // cn1's parts went stale with the write, and were let go as cn1's tree was searched again.
    expect(dropped.length).toBeGreaterThan(0);
  });

  it('keeps no part of a tree a claim moved while the search paused in it, so later answers stay exact', () => {
    // A wide tree: one FPGA on each of ten children, five isolated groups of one, far more steps than a slice.
    const wide = [{ uuid: 'w', inventories: {} }, ...Array.from({ length: 10 }, (_v, i) => ({ uuid: `w${i}`, parent: 'w', inventories: { FPGA: { total: 1 } } }))];
    const index = indexOf([...nestedTree(0), ...wide]);
    const request = candidateRequest(Array.from({ length: 5 }, (_v, i) => group(`${i + 1}`, { resources: [['FPGA', 1]] })), { groupPolicy: 'isolate' });
    const answers = new TreeAnswers();
    const steps = searchSteps(index, names, request, OPTIONS, answers);
    expect(steps.next().done).toBe(false);
    // A claim folded in during the pause (the service lets usage in): one child's FPGA taken.
    putChanged(index, index.get('w9')!.state, { usages: { FPGA: 1 } });
    while (!steps.next().done);
    const again = searchCandidates(index, names, request, OPTIONS, answers);
    expect(seen(again)).toEqual(seen(searchCandidates(index, names, request, OPTIONS)));
    expect(again.candidates.length).toBe(9 * 8 * 7 * 6 * 5);
  });

  it('is not used where sharing providers lend across trees, for the explain counts or for a shuffled answer', () => {
    const answers = new TreeAnswers();
    const lent = indexOf([...nestedTree(0), { uuid: 'ss', inventories: { DISK_GB: { total: 1000 } }, traits: [SHARES_VIA_AGGREGATE], aggregates: ['even'] }]);
    expect(searchCandidates(lent, names, REQUESTS.perfload, OPTIONS, answers).trees).toBeUndefined();
    const index = indexOf(nestedTree(0));
    expect(searchCandidates(index, names, REQUESTS.perfload, { ...OPTIONS, countEveryStep: true }, answers).trees).toBeUndefined();
    expect(searchCandidates(index, names, REQUESTS.perfload, { ...OPTIONS, randomize: true }, answers).trees).toBeUndefined();
    expect(searchCandidates(index, names, REQUESTS.perfload, OPTIONS, answers).trees).toHaveLength(1);
  });
});
