import type { RecordedEvent } from '#event-store/index.js';
import { emptyView, CandidateView } from '../candidate-view.js';
import { applyEvent } from '../index/apply-event.js';
import { UnreadableSnapshot } from '../index/provider-index.js';
import { candidateRequest, group } from '../search/request-builder.js';
import { searchCandidates } from '../search/search.js';
import { CandidateRequest } from '../request.js';
import { decodeView, encodeView, SNAPSHOT_FORMAT, viewParts } from './view-codec.js';
import { seededRandom } from '#test/support/seeded-random.js';

const CLASSES = ['VCPU', 'MEMORY_MB', 'DISK_GB', 'CUSTOM_A', 'CUSTOM_B'];
const TRAITS = ['HW_CPU_X86_AVX2', 'CUSTOM_T1', 'CUSTOM_T2', 'MISC_SHARES_VIA_AGGREGATE'];
const AGGREGATES = ['agg-1', 'agg-2', 'agg-3'];

/**
 * A deployment grown through the same fold as the service's: custom names created and deleted,
 * providers created under random parents, given inventories, traits and aggregates, moved,
 * deleted, and consumers claiming and leaving, so trees, orphans and reverse indexes vary.
 */
function randomView(seed: number, steps: number): CandidateView {
  const r = seededRandom(seed);
  const view = emptyView();
  const live: string[] = [];
  let n = 0;
  const fold = (stream: string, type: string, data: Record<string, unknown>) => {
    const event: RecordedEvent<any> = { stream, revision: 0, position: { commit: BigInt(++n), prepare: BigInt(n) }, type, data, metadata: {}, recordedAt: new Date(0) };
    applyEvent(view.index, view.names, event, view.projects);
  };
  const within = (candidate: string | null, ancestor: string): boolean => {
    for (let node = candidate === null ? undefined : view.index.get(candidate); node; node = node.parent ?? undefined) if (node.uuid === ancestor) return true;
    return false;
  };
  for (const name of ['CUSTOM_A', 'CUSTOM_B', 'CUSTOM_GONE']) fold(`resource-class-${name}`, 'ResourceClassCreated', { name });
  fold('resource-class-CUSTOM_GONE', 'ResourceClassDeleted', { name: 'CUSTOM_GONE' });
  for (const name of ['CUSTOM_T1', 'CUSTOM_T2']) fold(`trait-${name}`, 'TraitCreated', { name });
  for (let step = 0; step < steps; step++) {
    const roll = r.next();
    const uuid = live.length > 0 ? r.pick(live) : '';
    if (roll < 0.2 || live.length === 0) {
      const created = `p${step}`;
      const parent = live.length > 0 && r.next() < 0.5 ? r.pick(live) : null;
      fold(`provider-${created}`, 'ResourceProviderCreated', { uuid: created, name: created, parent_provider_uuid: parent, generation: 0 });
      live.push(created);
    } else if (roll < 0.4) {
      const inventories = Object.fromEntries(CLASSES.filter(() => r.next() < 0.5).map((rc) => [rc, {
        total: 1 + r.int(64), reserved: r.int(2), min_unit: 1, max_unit: 64, step_size: 1, allocation_ratio: r.pick([1, 1.5, 4]),
      }]));
      fold(`provider-${uuid}`, 'InventoriesSet', { inventories, generation: step });
    } else if (roll < 0.5) {
      fold(`provider-${uuid}`, 'TraitsSet', { traits: TRAITS.filter(() => r.next() < 0.4), generation: step });
    } else if (roll < 0.6) {
      fold(`provider-${uuid}`, 'AggregatesSet', { aggregates: AGGREGATES.filter(() => r.next() < 0.4), generation: step });
    } else if (roll < 0.85) {
      const consumer = `c${r.int(steps / 4)}`;
      const holding = r.next() < 0.2 ? {} : { [r.pick(CLASSES)]: 1 + r.int(4) };
      fold(`provider-${uuid}`, 'ProviderAllocationsChanged', { consumers: { [consumer]: holding }, generation: step });
      if (Object.keys(holding).length > 0) fold(`consumer-${consumer}`, 'ConsumerAllocationsReplaced', { project_id: `project-${r.int(3)}`, allocations: { [uuid]: holding } });
      else fold(`consumer-${consumer}`, 'ConsumerRemoved', {});
    } else if (roll < 0.93) {
      const parent = r.next() < 0.3 ? null : r.pick(live);
      // The domain refuses a move under the provider's own subtree; so does this deployment.
      if (!within(parent, uuid)) fold(`provider-${uuid}`, 'ResourceProviderUpdated', { name: `${uuid}-renamed`, parent_provider_uuid: parent, generation: step });
    } else {
      fold(`provider-${uuid}`, 'ResourceProviderDeleted', {});
      live.splice(live.indexOf(uuid), 1);
    }
  }
  return view;
}

const requests: CandidateRequest[] = [
  candidateRequest([group('', { resources: [['VCPU', 1]] })]),
  candidateRequest([group('', { resources: [['VCPU', 2], ['DISK_GB', 1]] })]),
  candidateRequest([group('', { resources: [['MEMORY_MB', 1]], requiredTraits: [['CUSTOM_T1']] }), group('1', { resources: [['CUSTOM_A', 1]] })], { groupPolicy: 'none' }),
  candidateRequest([group('', { resources: [['CUSTOM_B', 1]], memberOf: [['agg-1', 'agg-2']] })]),
  candidateRequest([group('1', { resources: [['VCPU', 1]] }), group('2', { resources: [['DISK_GB', 1]] })], { groupPolicy: 'isolate', nestedAware: false }),
];

/** A whole answer as data: candidates in order, then the summaries' providers and their rooms. */
function answers(view: CandidateView) {
  return requests.map((request) => {
    const result = searchCandidates(view.index, view.names, request, { randomize: false, maxCandidates: 500 });
    return {
      candidates: result.candidates.map((c) => c.allocations.map((a) => [a.provider.uuid, a.resources])),
      summaries: result.summaries.map((p) => [p.uuid, p.root.uuid, p.parent?.uuid ?? null, [...p.rooms], [...p.traits]]),
    };
  });
}

describe('the candidate view snapshot', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('restores deployment %i to one answering every request as the original', (seed) => {
    const original = randomView(seed, 600);
    const restored = decodeView(encodeView(original));
    expect(answers(restored)).toEqual(answers(original));
    // The deployment answers something, so equal answers say more than two empty lists.
    expect(answers(original).some((answer) => answer.candidates.length > 0)).toBe(true);
    expect(restored.index.size).toBe(original.index.size);
    expect(restored.index.hasTrees).toBe(original.index.hasTrees);
    expect(restored.index.roots().map((node) => node.uuid)).toEqual(original.index.roots().map((node) => node.uuid));
    expect([...restored.projects.usage()].map(([p, c]) => [p, [...c]])).toEqual([...original.projects.usage()].map(([p, c]) => [p, [...c]]));
    for (const name of ['CUSTOM_A', 'CUSTOM_B', 'CUSTOM_GONE', 'VCPU']) expect(restored.names.hasClass(name)).toBe(original.names.hasClass(name));
    for (const name of ['CUSTOM_T1', 'CUSTOM_T2', 'CUSTOM_NEVER']) expect(restored.names.hasTrait(name)).toBe(original.names.hasTrait(name));
    // Taken again, the restored view's snapshot is the original's: nothing was lost or reordered.
    expect(restored.index.toSnapshot()).toEqual(original.index.toSnapshot());
    expect(restored.projects.toSnapshot()).toEqual(original.projects.toSnapshot());
  });

  it('makes its parts of the view as it stood when asked, while the view goes on following the log', () => {
    const view = randomView(12, 400);
    const asked = encodeView(view);
    const parts = viewParts(view);
    const event = (stream: string, type: string, data: Record<string, unknown>): RecordedEvent<any> =>
      ({ stream, revision: 0, position: { commit: 1n, prepare: 1n }, type, data, metadata: {}, recordedAt: new Date(0) });
    const someone = view.index.roots()[0].uuid;
    applyEvent(view.index, view.names, event('provider-p-late', 'ResourceProviderCreated', { uuid: 'p-late', name: 'late', parent_provider_uuid: null, generation: 0 }), view.projects);
    applyEvent(view.index, view.names, event(`provider-${someone}`, 'ProviderAllocationsChanged', { consumers: { 'c-late': { VCPU: 1 } }, generation: 99 }), view.projects);
    applyEvent(view.index, view.names, event('consumer-c-late', 'ConsumerAllocationsReplaced', { project_id: 'p-late', user_id: 'u', allocations: { [someone]: { VCPU: 1 } } }), view.projects);
    expect(encodeView(view)).not.toEqual(asked);
    expect([...parts]).toEqual(asked);
  });

  it('keeps following the log after a restore exactly as the original does', () => {
    const original = randomView(11, 400);
    const restored = decodeView(encodeView(original));
    const move = { stream: 'provider-p0', revision: 9, position: { commit: 1n, prepare: 1n }, type: 'ProviderAllocationsChanged', metadata: {}, recordedAt: new Date(0) };
    for (const view of [original, restored]) {
      applyEvent(view.index, view.names, { ...move, data: { consumers: { 'c-new': { VCPU: 1 } }, generation: 99 } }, view.projects);
    }
    expect(answers(restored)).toEqual(answers(original));
  });

  it('refuses another format, a damaged payload and parts that contradict each other', () => {
    const good = encodeView(randomView(3, 200));
    expect(() => decodeView([JSON.stringify({ kind: 'head', format: SNAPSHOT_FORMAT + 1 })])).toThrow(UnreadableSnapshot);
    expect(() => decodeView(good.slice(0, good.length / 2))).toThrow(UnreadableSnapshot);
    expect(() => decodeView(['not a snapshot'])).toThrow(UnreadableSnapshot);
    expect(() => decodeView([good[0], JSON.stringify({ kind: 'providers', states: 'no' })])).toThrow(UnreadableSnapshot);
    expect(() => decodeView([good[0], good[0]])).toThrow(UnreadableSnapshot);
    // Parts that fit together as JSON but not as an index.
    const view = randomView(3, 200);
    const index = view.index.toSnapshot();
    const withIndex = (changed: Partial<typeof index>) => {
      const [head, ...rest] = encodeView(view).map((part) => JSON.parse(part));
      const states = changed.states ?? index.states;
      const children = changed.children ?? index.children;
      const providers = rest.filter((part) => part.kind === 'providers');
      const others = rest.filter((part) => part.kind !== 'providers');
      return [
        JSON.stringify({ ...head, providers: states.length, byClass: changed.byClass ?? head.byClass }),
        JSON.stringify({ ...providers[0], states, children }),
        ...others.map((part) => JSON.stringify(part)),
      ];
    };
    expect(decodeView(withIndex({})).index.size).toBe(view.index.size);
    // Two providers each the other's child: a cycle no root reaches.
    expect(() => decodeView(withIndex({ children: index.children.map((_, i) => (i === 0 ? [1] : i === 1 ? [0] : [])) }))).toThrow(UnreadableSnapshot);
    expect(() => decodeView(withIndex({ byClass: [['VCPU', [index.states.length + 5]]] }))).toThrow(UnreadableSnapshot);
    expect(() => decodeView(withIndex({ states: [...index.states, index.states[0]], children: [...index.children, []] }))).toThrow(UnreadableSnapshot);
  });
});
