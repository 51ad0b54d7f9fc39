import { NameCatalog } from '../index/name-catalog.js';
import { indexOf, PlainProvider } from '../index/plain-index.js';
import { SHARES_VIA_AGGREGATE } from '../index/provider-index.js';
import { allowedAnchors, SharingAnchors } from './anchors.js';
import { Candidate, Combiner } from './combine.js';
import { Explain } from './explain.js';
import { checkGroup } from './group-context.js';
import { streamOneGroup } from './one-group.js';
import { candidateRequest, group } from './request-builder.js';
import { singleProviderChoices } from './single-provider.js';
import { CandidateRequest } from '../request.js';
import { runToEnd } from './steps.js';

/** A flat deployment of varied providers, some sharing, some full, in a few aggregates. */
function deployment(): PlainProvider[] {
  const traits = ['HW_CPU_X86_AVX2', 'HW_CPU_X86_SSE', 'STORAGE_DISK_SSD'];
  return Array.from({ length: 60 }, (_v, i) => ({
    uuid: `p${String(i).padStart(2, '0')}`,
    inventories: { VCPU: { total: 4 + (i % 5) }, ...(i % 4 === 0 ? {} : { DISK_GB: { total: 100, step_size: i % 3 === 0 ? 10 : 1 } }) },
    used: { VCPU: i % 7 },
    traits: [traits[i % 3], ...(i % 11 === 0 ? [traits[(i + 1) % 3]] : []), ...(i % 13 === 0 ? [SHARES_VIA_AGGREGATE] : [])],
    aggregates: i % 2 === 0 ? ['a'] : i % 5 === 0 ? ['a', 'b'] : [],
  }));
}

const names = new NameCatalog();
const key = (c: Candidate) => `${c.mappings[0][1][0].uuid}:${c.allocations.map((a) => a.resources.map(([rc, n]) => `${rc}=${n}`).join(',')).join()}`;

/** The reference: every provider tested literally against the group, as upstream's SQL reads. */
function reference(providers: PlainProvider[], request: CandidateRequest): string[] {
  const index = indexOf(providers);
  const [g] = request.groups;
  const roots = new Set(providers.filter((p) => !p.parent && request.rootRequired.every((t) => p.traits?.includes(t))).map((p) => p.uuid));
  const sharing = new SharingAnchors(index);
  const positive = g.requiredTraits.length > 0 || g.memberOf.length > 0;
  return providers.map((p) => index.get(p.uuid)!).filter((node) => {
    if (g.resources.length === 0 && !positive) return false;
    const room = g.resources.every(([rc, n]) => {
      const inv = node.state.inventories[rc];
      return inv && (node.state.usages[rc] ?? 0) + n <= Math.trunc((inv.total - inv.reserved) * inv.allocation_ratio)
        && inv.min_unit <= n && n <= inv.max_unit && n % inv.step_size === 0;
    });
    const inTree = g.inTree === null || g.resources.length === 0 || node.root === index.get(g.inTree)?.root;
    const anchored = request.rootRequired.length === 0 || roots.has(node.root.uuid)
      || (node.traits.has(SHARES_VIA_AGGREGATE) && sharing.of(node).some((a) => roots.has(a.uuid)));
    return room && inTree && anchored
      && g.requiredTraits.every((anyOf) => anyOf.some((t) => node.traits.has(t)))
      && g.memberOf.every((anyOf) => anyOf.some((a) => node.aggregates.has(a)))
      && !g.forbiddenAggregates.some((a) => node.aggregates.has(a)) && !g.forbiddenTraits.some((t) => node.traits.has(t));
  }).map((node) => `${node.uuid}:${g.resources.map(([rc, n]) => `${rc}=${n}`).join(',')}`).sort();
}

/** `counted`: root_required as explain asks for it (the set of roots, counted), else as the scheduler (a test of each root met). */
function streamed(providers: PlainProvider[], request: CandidateRequest, cap = Infinity, counted = false): string[] {
  const index = indexOf(providers);
  const explain = new Explain();
  const allowed = allowedAnchors(index, names, request, explain, counted);
  const checked = checkGroup(index, names, request.groups[0], explain);
  if (!checked || (allowed instanceof Set && allowed.size === 0)) return [];
  return runToEnd(streamOneGroup(index, checked, allowed, new SharingAnchors(index), { cap, shuffle: null }, explain)).candidates.map(key).sort();
}

describe('streamOneGroup', () => {
  const providers = deployment();
  const cases: [string, CandidateRequest][] = [
    ['resources only', candidateRequest([group('', { resources: [['VCPU', 2], ['DISK_GB', 10]] })])],
    ['required traits, any-of', candidateRequest([group('', { resources: [['VCPU', 1]], requiredTraits: [['HW_CPU_X86_AVX2', 'STORAGE_DISK_SSD']] })])],
    ['member_of and forbidden', candidateRequest([group('1', { resources: [['DISK_GB', 5]], memberOf: [['a', 'b']], forbiddenAggregates: ['b'], forbiddenTraits: ['HW_CPU_X86_SSE'] })])],
    ['resourceless with a trait', candidateRequest([group('1', { requiredTraits: [['HW_CPU_X86_SSE']] })])],
    ['resourceless without a positive filter', candidateRequest([group('1', { forbiddenTraits: ['HW_CPU_X86_SSE'] })])],
    ['root_required', candidateRequest([group('', { resources: [['VCPU', 1]] })], { rootRequired: ['STORAGE_DISK_SSD'] })],
    ['in_tree', candidateRequest([group('1', { resources: [['VCPU', 1]], inTree: 'p07' })])],
  ];

  it.each(cases)('finds exactly the providers meeting the group: %s', (_name, request) => {
    expect(streamed(providers, request)).toEqual(reference(providers, request));
  });

  it('finds the same with root_required as a set of roots, counted, as explain asks for it', () => {
    const request = cases[5][1];
    expect(streamed(providers, request, Infinity, true)).toEqual(reference(providers, request));
    expect(streamed(providers, request, Infinity, true)).toEqual(streamed(providers, request));
    const explain = new Explain();
    allowedAnchors(indexOf(providers), names, request, explain, true);
    expect(explain.steps).toEqual([{ step: 'roots meeting root_required', count: expect.any(Number) }]);
    expect(explain.steps[0].count).toBeGreaterThan(0);
  });

  it('agrees with the combination path on the same request', () => {
    const request = cases[2][1];
    const index = indexOf(providers);
    const ctx = checkGroup(index, names, request.groups[0], new Explain())!;
    const choices = singleProviderChoices(index, ctx, null, new SharingAnchors(index));
    const combined = runToEnd(new Combiner([{ ctx, choices, multi: false }], request, { cap: null, excludeNested: false, shuffle: null }).run(new Explain()));
    expect(combined.map(key).sort()).toEqual(streamed(providers, request));
  });

  it('stops at the cap after looking at few providers', () => {
    const index = indexOf(providers);
    const explain = new Explain();
    const request = candidateRequest([group('', { resources: [['VCPU', 1]] })]);
    const found = runToEnd(streamOneGroup(index, checkGroup(index, names, request.groups[0], explain)!, null, new SharingAnchors(index), { cap: 5, shuffle: null }, explain)).candidates;
    expect(found).toHaveLength(5);
    expect(explain.steps.find((s) => s.step.endsWith('providers examined'))!.count).toBeLessThan(10);
  });
});
