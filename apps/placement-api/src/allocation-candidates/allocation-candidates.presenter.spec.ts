import { NameCatalog } from '#placement/candidates/index/name-catalog.js';
import { indexOf, PlainProvider } from '#placement/candidates/index/plain-index.js';
import { candidateRequest, group } from '#placement/candidates/search/request-builder.js';
import { searchCandidates } from '#placement/candidates/search/search.js';
import { Candidate, OneProviderCandidate } from '#placement/candidates/search/candidate.js';
import { AnswerReuse } from '#placement/candidates/reuse/answer-reuse.js';
import { TreeAnswers } from '#placement/candidates/reuse/tree-answers.js';
import {
  deviceChildren, DEVICE_WRITES, FLAT_REQUESTS, FLAT_WRITES, flatCatalog, flatCloud, putChanged,
} from '#test/support/candidate-fixtures.js';
import { seededRandom } from '#test/support/seeded-random.js';
import { Version } from '../platform/microversion.js';
import { presentCandidates, presentSteps } from './allocation-candidates.presenter.js';

const index = indexOf([
  { uuid: 'cn', inventories: { VCPU: { total: 8, allocation_ratio: 2 }, MEMORY_MB: { total: 1024, reserved: 24 } }, used: { VCPU: 3 }, traits: ['HW_CPU_X86_AVX2'] },
  { uuid: 'numa', parent: 'cn', inventories: { SRIOV_NET_VF: { total: 4 } } },
]);
const request = candidateRequest([group('', { resources: [['VCPU', 1]] }), group('_NET', { resources: [['SRIOV_NET_VF', 2]] })]);
const search = () => searchCandidates(index, new NameCatalog(), request, { randomize: false, maxCandidates: null });
const result = search();
const reused = new AnswerReuse();
const at = (version: string, answer = result) => JSON.parse(presentCandidates(answer, request, Version.parse(version), reused).toString('latin1'));

/** A flat cloud of `size` asked one question at 1.39 again and again, as the API asks it: kept, patched, presented. */
function askedOfFlat(size: number) {
  const cloud = indexOf(flatCloud(size));
  const names = new NameCatalog();
  const reuse = new AnswerReuse();
  const asked = candidateRequest([group('', { resources: [['VCPU', 1]] })]);
  const options = { randomize: false, maxCandidates: null };
  const answer = () => reuse.results.answer(cloud, names, asked, options, async () => searchCandidates(cloud, names, asked, options));
  return { cloud, reuse, asked, answer, present: async () => presentCandidates(await answer(), asked, Version.parse('1.39'), reuse) };
}

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
    expect(at('1.39', search()).provider_summaries.cn.resources.VCPU.used).toBe(3);
    const cn = index.get('cn')!;
    index.put('cn', { ...cn.state, usages: { VCPU: 5 } });
    // After a write the search gives a new result (KeptResults): the same one is never presented again.
    expect(at('1.39', search()).provider_summaries.cn.resources.VCPU.used).toBe(5);
  });

  it('keeps the body of a result presented again, apart from the reused buffers', () => {
    const big = indexOf(Array.from({ length: 1200 }, (_v, i): PlainProvider => ({ uuid: `cn${i}`, inventories: { VCPU: { total: 8 } } })));
    const vcpu = candidateRequest([group('', { resources: [['VCPU', 1]] })]);
    // Not a streamed answer that patches copy from (that one is kept from its first presentation, below).
    const answer = { ...searchCandidates(big, new NameCatalog(), vcpu, { randomize: false, maxCandidates: null }), walked: undefined };
    const reuse = new AnswerReuse();
    const { buffers } = reuse;
    const present = (version = '1.39') => presentCandidates(answer, vcpu, Version.parse(version), reuse);
    const first = present();
    const text = first.toString('latin1');
    buffers.giveBack(first);
    // Presented again: written anew, outside the reused buffers (else it would get the first's), and kept.
    const second = present();
    expect(second.buffer).not.toBe(first.buffer);
    expect(present()).toBe(second);
    // Given back as every reply is, the kept body is still not handed out for another answer.
    buffers.giveBack(second);
    for (const _answer of [1, 2]) buffers.take(second.buffer.byteLength)!.fill(0x20);
    expect(present().toString('latin1') === text).toBe(true);
    // Another shape (no mappings before 1.34) is another body.
    expect(present('1.33').toString('latin1') === text.replace(/,"mappings":\{"":\["cn\d+"\]\}/g, '')).toBe(true);
  });

  it('writes a body too large to keep into the reused buffers, every time', () => {
    const big = indexOf(Array.from({ length: 12_000 }, (_v, i): PlainProvider => ({
      uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, inventories: { VCPU: { total: 8 }, MEMORY_MB: { total: 4096 }, DISK_GB: { total: 100 } }, traits: ['HW_CPU_X86_AVX2', 'HW_CPU_X86_SSE42'],
    })));
    const three = candidateRequest([group('', { resources: [['VCPU', 1], ['MEMORY_MB', 1], ['DISK_GB', 1]] })]);
    const answer = searchCandidates(big, new NameCatalog(), three, { randomize: false, maxCandidates: null });
    const reuse = new AnswerReuse();
    const { buffers } = reuse;
    const present = () => presentCandidates(answer, three, Version.parse('1.39'), reuse);
    const first = present();
    expect(first.length).toBeGreaterThan(4 * 1024 * 1024);
    buffers.giveBack(first);
    // The second presentation finds it too large to keep; the third goes back to the reused buffers.
    expect(present().buffer).not.toBe(first.buffer);
    expect(present().buffer).toBe(first.buffer);
  });

  it.each([
    // Giving a child a class the flavors ask reshapes the index, so fewer answers are patched with devices.
    ['a flat cloud', flatCloud(60), FLAT_WRITES, 300],
    ['a cloud whose computes have devices below them', [...flatCloud(60), ...deviceChildren(60)], DEVICE_WRITES, 100],
  ])('writes a patched answer by copying what its earlier body holds still, the same bytes as a whole search, at every shape: %s', async (_name, providers, cloudWrites, patches) => {
    const random = seededRandom(20261129);
    const cloud = indexOf(providers);
    const names = flatCatalog();
    const reuse = new AnswerReuse();
    const options = { randomize: false, maxCandidates: null };
    let patched = 0;
    for (let step = 0; step < 150; step++) {
      for (let writes = random.int(3); writes > 0; writes--) random.pick(cloudWrites)(cloud, random);
      for (const [name, request] of Object.entries(FLAT_REQUESTS)) {
        const asked = { ...request, limit: name === 'small' ? 9 : null };
        const result = await reuse.results.answer(cloud, names, asked, options, async () => searchCandidates(cloud, names, asked, options));
        if (result.walked?.base?.result) patched++;
        // Each request at its own shape, so each answer's bodies are of one shape, as a cloud's schedulers ask.
        const version = Version.parse(['1.12', '1.26', '1.29', '1.34', '1.36', '1.39'][Object.keys(FLAT_REQUESTS).indexOf(name)]);
        const body = presentCandidates(result, asked, version, reuse).toString('latin1');
        expect({ name, body }).toEqual({ name, body: presentCandidates(searchCandidates(cloud, names, asked, options), asked, version, new AnswerReuse()).toString('latin1') });
      }
    }
    expect(patched).toBeGreaterThan(patches);
  });

  it('copies the entries a patched answer shares with the body of the answer it was patched from', async () => {
    const { cloud, present } = askedOfFlat(4);
    const first = await present();
    // Marked in the kept body: a request entry and a summary of providers that will not change.
    first.write('X', first.indexOf('c0003'), 'latin1');
    first.write('Y', first.lastIndexOf('c0000'), 'latin1');
    putChanged(cloud, cloud.get('c0000')!.state, { usages: { VCPU: 2 } });
    const body = JSON.parse((await present()).toString('latin1'));
    expect(body.allocation_requests.map((r: { allocations: object }) => Object.keys(r.allocations)[0])).toEqual(['c0000', 'c0001', 'c0002', 'X0003']);
    // The summary of c0000 changed, so it was written anew; the request entries were copied.
    expect(Object.keys(body.provider_summaries)).toEqual(['c0000', 'c0001', 'c0002', 'c0003']);
    expect(body.provider_summaries.c0000.resources.VCPU.used).toBe(2);
  });

  it('keeps the body of a patched answer in a reused buffer that no other answer gets while it is kept or sent', async () => {
    const { cloud, reuse, present } = askedOfFlat(1200);
    const first = await present();
    const text = first.toString('latin1');
    // Sent twice (each reply gives its body back once sent), and still kept.
    reuse.buffers.giveBack(first);
    expect(await present()).toBe(first);
    reuse.buffers.giveBack(first);
    reuse.buffers.take(first.length)!.fill(0x20);
    expect(first.toString('latin1') === text).toBe(true);
    // Patched after a claim, the first body is let go once the patch's is written: its memory comes back.
    putChanged(cloud, cloud.get('c0005')!.state, { usages: { VCPU: 1 } });
    const second = await present();
    expect(second.buffer).not.toBe(first.buffer);
    expect(reuse.buffers.take(first.length)!.buffer).toBe(first.buffer);
  });

  it('holds the body it copies from while it pauses, though that body is let go meanwhile', async () => {
    const { cloud, reuse, asked, answer, present } = askedOfFlat(1200);
    const first = await present();
    const text = first.toString('latin1');
    reuse.buffers.giveBack(first);
    putChanged(cloud, cloud.get('c0005')!.state, { usages: { VCPU: 1 } });
    const patched = await answer();
    expect(patched.walked?.base?.result).toBeDefined();
    const steps = presentSteps(patched, asked, Version.parse('1.39'), reuse);
    // Paused once its first run of copied entries passed the bytes between pauses: then the earlier body is let go, and its memory asked for.
    expect(steps.next().done).toBe(false);
    reuse.bytes.forget(patched.walked!.base!.result!);
    reuse.buffers.take(first.length)!.fill(0x20);
    expect(first.toString('latin1') === text).toBe(true);
    let step = steps.next();
    while (!step.done) step = steps.next();
    expect(JSON.parse(step.value.toString('latin1')).provider_summaries.c0005.resources.VCPU.used).toBe(1);
    // Done, it lets go of the earlier body: its memory is handed out again.
    expect(reuse.buffers.take(first.length)!.buffer).toBe(first.buffer);
  });

  it('pauses by the bytes written, so a wide tree\'s thousand candidates of ten allocations each are not written in one go', () => {
    const wide = indexOf([{ uuid: 'root' }, ...Array.from({ length: 10 }, (_v, i) => ({ uuid: `pci${i}`, parent: 'root', inventories: { PCI_DEVICE: { total: 1 } } }))]);
    const asked = candidateRequest(Array.from({ length: 10 }, (_v, i) => group(`${i + 1}`, { resources: [['PCI_DEVICE', 1]] })), { groupPolicy: 'isolate', limit: 1000 });
    const options = { randomize: false, maxCandidates: null };
    // Written whole (a search without kept parts) and tree by tree (with them).
    for (const found of [searchCandidates(wide, new NameCatalog(), asked, options), searchCandidates(wide, new NameCatalog(), asked, options, new TreeAnswers())]) {
      const steps = presentSteps(found, asked, Version.parse('1.39'), new AnswerReuse());
      let pauses = 0;
      let step = steps.next();
      for (; !step.done; step = steps.next()) pauses++;
      const body = step.value;
      expect(JSON.parse(body.toString('latin1')).allocation_requests).toHaveLength(1000);
      expect(body.length).toBeGreaterThan(512 * 1024);
      expect(pauses).toBeGreaterThanOrEqual(Math.floor(body.length / (64 * 1024)) - 1);
    }
  });

  it('pauses a streamed answer by the bytes written too, where each candidate is summarized with its whole tree', () => {
    const cloud = indexOf([...flatCloud(400), ...deviceChildren(400)]);
    const asked = candidateRequest([group('', { resources: [['VCPU', 1]] })]);
    const found = searchCandidates(cloud, new NameCatalog(), asked, { randomize: false, maxCandidates: null });
    expect(found.walked).toBeDefined();
    const steps = presentSteps(found, asked, Version.parse('1.39'), new AnswerReuse());
    let pauses = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) pauses++;
    expect(JSON.parse(step.value.toString('latin1')).allocation_requests).toHaveLength(400);
    expect(step.value.length).toBeGreaterThan(128 * 1024);
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(step.value.length / (64 * 1024)) - 1);
  });

  it('writes the same bytes tree by tree from kept parts as from a whole search, at each shape from 1.29, after writes, with a limit', () => {
    const trees = indexOf(Array.from({ length: 6 }, (_v, i): PlainProvider[] => [
      { uuid: `cn${i}`, inventories: { DISK_GB: { total: 100 } }, traits: ['COMPUTE_VOLUME_MULTI_ATTACH'] },
      { uuid: `numa${i}`, parent: `cn${i}`, inventories: { VCPU: { total: 4 }, MEMORY_MB: { total: 2048 } } },
      { uuid: `vf${i}a`, parent: `numa${i}`, inventories: { SRIOV_NET_VF: { total: 4 } } },
      { uuid: `vf${i}b`, parent: `numa${i}`, inventories: { SRIOV_NET_VF: { total: 4 } } },
    ]).flat());
    const nested = candidateRequest([group('', { resources: [['VCPU', 1], ['DISK_GB', 10]] }), group('_NET', { resources: [['SRIOV_NET_VF', 2]] })],
      { groupPolicy: 'none' });
    const names = new NameCatalog();
    const reuse = new AnswerReuse();
    const options = { randomize: false, maxCandidates: null };
    for (const round of [0, 1, 2]) {
      if (round === 2) trees.put('numa3', { ...trees.get('numa3')!.state, usages: { VCPU: 4 } });
      for (const version of ['1.29', '1.33', '1.34', '1.39']) {
        for (const limit of [null, 5]) {
          const asked = { ...nested, limit };
          const kept = searchCandidates(trees, names, asked, options, reuse.trees);
          expect(kept.trees).toBeDefined();
          const body = presentCandidates(kept, asked, Version.parse(version), reuse).toString('latin1');
          expect(body).toBe(presentCandidates(searchCandidates(trees, names, asked, options), asked, Version.parse(version), new AnswerReuse()).toString('latin1'));
          expect(Object.keys(JSON.parse(body).provider_summaries).length).toBeGreaterThan(0);
        }
      }
    }
  });

  it('writes a one-provider candidate from its template exactly as a candidate of its own, at every shape, with or without resources', () => {
    const flat = indexOf([{ uuid: 'cn1', inventories: { VCPU: { total: 8 } } }, { uuid: 'cn2', inventories: { VCPU: { total: 8 } } }]);
    for (const groups of [[group('_A', { resources: [['VCPU', 1]] })], [group('', { resources: [['VCPU', 2]] })]]) {
      const asked = candidateRequest(groups);
      const found = searchCandidates(flat, new NameCatalog(), asked, { randomize: false, maxCandidates: null });
      expect(found.candidates.length).toBe(2);
      // The same candidates as plain objects take the general path (writeRequest).
      const plain = { ...found, walked: undefined, candidates: found.candidates.map((c) => ({ allocations: c.allocations, mappings: c.mappings })) };
      for (const version of ['1.10', '1.11', '1.12', '1.33', '1.34', '1.39']) {
        const templated = presentCandidates(found, asked, Version.parse(version), new AnswerReuse()).toString('latin1');
        expect(templated).toBe(presentCandidates(plain, asked, Version.parse(version), new AnswerReuse()).toString('latin1'));
        expect(JSON.parse(templated).allocation_requests).toHaveLength(2);
      }
    }
    const bare = new OneProviderCandidate(flat.get('cn1')!, [], '_T');
    const bareBody = (candidates: readonly Candidate[]) => presentCandidates({ candidates, summaries: [], explain: [] }, request, Version.parse('1.39'), new AnswerReuse()).toString('latin1');
    expect(bareBody([bare])).toBe(bareBody([{ allocations: bare.allocations, mappings: bare.mappings }]));
    expect(JSON.parse(bareBody([bare])).allocation_requests).toEqual([{ allocations: {}, mappings: { _T: ['cn1'] } }]);
  });

  it('answers an empty search with empty collections', () => {
    const none = presentCandidates({ candidates: [], summaries: [], explain: [] }, request, Version.parse('1.39'), new AnswerReuse());
    expect(JSON.parse(none.toString())).toEqual({ allocation_requests: [], provider_summaries: {} });
  });
});
