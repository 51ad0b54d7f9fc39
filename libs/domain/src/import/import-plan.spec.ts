import { ConsumerEvent, ConsumerState, evolveConsumer, initialConsumerState } from '../consumer/index.js';
import { ProviderEvent } from '../provider/provider.events.js';
import { ProviderState, evolveProvider, initialProviderState } from '../provider/provider.state.js';
import { inventoryWithDefaults } from '../provider/inventory.js';
import { HOLDERS_PER_EVENT, planImport } from './import-plan.js';
import { ProviderNameEvent, initialProviderNameState, evolveProviderName, providerNameStream } from '../provider-name/provider-name.decider.js';
import { PROVIDER_NAMES_BACKFILLED_STREAM } from '../provider-name/provider-names-backfilled.js';
import { checkUpstreamState } from './upstream-state.check.js';
import { UpstreamConsumer, UpstreamProvider, UpstreamState } from './upstream-state.js';

const T0 = '2025-01-02T03:04:05.000Z';
const provider = (uuid: string, parentUuid: string | null, extra: Partial<UpstreamProvider> = {}): UpstreamProvider => ({
  uuid, name: `rp-${uuid}`, generation: 7, parentUuid, modifiedAt: T0, inventories: {}, inventoriesModifiedAt: null,
  traits: [], aggregates: [], ...extra,
});
const consumer = (uuid: string, allocations: UpstreamConsumer['allocations'], extra: Partial<UpstreamConsumer> = {}): UpstreamConsumer => ({
  uuid, projectId: 'p1', userId: 'u1', consumerType: 'INSTANCE', generation: 3, allocations, modifiedAt: T0, ...extra,
});

const cloud: UpstreamState = {
  revision: 'a082b8bb98d0',
  resourceClasses: [{ name: 'CUSTOM_GOLD', modifiedAt: T0 }],
  traits: [{ name: 'CUSTOM_FAST', modifiedAt: T0 }],
  providers: [
    // Children listed before their parents, as a source ordered by uuid may list them.
    provider('c-numa', 'b-root', { inventories: { VCPU: inventoryWithDefaults({ total: 8 }) }, inventoriesModifiedAt: T0, generation: 12 }),
    provider('b-root', null, { traits: ['CUSTOM_FAST', 'HW_CPU_X86_AVX2'], aggregates: ['agg-1'], generation: 4,
      inventories: { CUSTOM_GOLD: inventoryWithDefaults({ total: 2, reserved: 1 }) }, inventoriesModifiedAt: T0 }),
    provider('a-gpu', 'c-numa', { generation: 0 }),
  ],
  consumers: [
    consumer('vm-1', { 'c-numa': { VCPU: 2 }, 'b-root': { CUSTOM_GOLD: 1 } }),
    consumer('vm-old', { 'c-numa': { VCPU: 1 } }, { consumerType: null, generation: 0 }),
    consumer('empty', {}, { generation: 1 }),
  ],
};

const origin = { source: 'mysql+pymysql://placement@db/placement', importedAt: '2026-11-24T10:00:00.000Z' };

function replayed(state: UpstreamState) {
  const streams = new Map<string, { type: string; data: any }[]>();
  for (const phase of planImport(state, origin).phases) {
    for (const write of phase) streams.set(write.stream, [...(streams.get(write.stream) ?? []), ...write.events]);
  }
  const providerState = (uuid: string) => (streams.get(`provider-${uuid}`) ?? [])
    .reduce<ProviderState>((s, e) => evolveProvider(s, e as ProviderEvent), initialProviderState());
  const consumerState = (uuid: string) => (streams.get(`consumer-${uuid}`) ?? [])
    .reduce<ConsumerState>((s, e) => evolveConsumer(s, e as ConsumerEvent), initialConsumerState());
  const nameState = (name: string) => (streams.get(providerNameStream(name)) ?? [])
    .reduce((s, e) => evolveProviderName(s, e as ProviderNameEvent), initialProviderNameState());
  return { streams, providerState, consumerState, nameState };
}

describe('planImport', () => {
  it('starts every stream with the marker that names the source', () => {
    const { streams } = replayed(cloud);
    // a class, a trait, three provider names and the backfill's marker, three providers, three consumers
    expect(streams.size).toBe(1 + 1 + 3 + 1 + 3 + 3);
    for (const events of streams.values()) {
      expect(events[0]).toEqual({ type: 'StreamImported', data: { ...{ source: origin.source, source_revision: 'a082b8bb98d0', imported_at: origin.importedAt }, v: 1 } });
    }
  });

  it('reproduces each provider with its generation, inventories, traits, aggregates and usage', () => {
    const { providerState } = replayed(cloud);
    expect(providerState('b-root')).toMatchObject({
      status: 'active', name: 'rp-b-root', parentUuid: null, generation: 4, traits: ['CUSTOM_FAST', 'HW_CPU_X86_AVX2'],
      aggregates: ['agg-1'], usages: { CUSTOM_GOLD: 1 }, allocations: { 'vm-1': { CUSTOM_GOLD: 1 } },
    });
    expect(providerState('c-numa')).toMatchObject({ generation: 12, parentUuid: 'b-root', usages: { VCPU: 3 } });
    expect(providerState('a-gpu')).toMatchObject({ status: 'active', generation: 0, inventories: {}, usages: {} });
  });

  it('reproduces each consumer with its generation, owner and type, an empty one included', () => {
    const { consumerState } = replayed(cloud);
    expect(consumerState('vm-1')).toEqual({
      status: 'active', projectId: 'p1', userId: 'u1', consumerType: 'INSTANCE', generation: 3,
      allocations: { 'c-numa': { VCPU: 2 }, 'b-root': { CUSTOM_GOLD: 1 } },
    });
    expect(consumerState('vm-old')).toMatchObject({ consumerType: null, generation: 0 });
    expect(consumerState('empty')).toMatchObject({ status: 'active', allocations: {}, generation: 1 });
  });

  it('writes names first, then parents before children, then consumers', () => {
    const phases = planImport(cloud, origin).phases.map((phase) => phase.map((write) => write.stream));
    expect(phases).toEqual([
      ['resource-class-CUSTOM_GOLD', 'trait-CUSTOM_FAST', ...['rp-c-numa', 'rp-b-root', 'rp-a-gpu'].map(providerNameStream), PROVIDER_NAMES_BACKFILLED_STREAM],
      ['provider-b-root'], ['provider-c-numa'], ['provider-a-gpu'],
      ['consumer-vm-1', 'consumer-vm-old', 'consumer-empty'],
    ]);
  });

  it("holds each imported provider's name for it, so the log needs no backfill", () => {
    const { nameState, streams } = replayed(cloud);
    expect(['b-root', 'c-numa', 'a-gpu'].map((uuid) => nameState(`rp-${uuid}`))).toEqual(
      ['b-root', 'c-numa', 'a-gpu'].map((provider) => ({ status: 'held', provider })));
    expect(streams.get(PROVIDER_NAMES_BACKFILLED_STREAM)?.[1]).toEqual({ type: 'ProviderNamesBackfilled', data: { providers: 3, reserved: 3, v: 1 } });
    expect(planImport({ ...cloud, providers: [], consumers: [] }, origin).phases.flat().map((write) => write.stream))
      .toEqual(['resource-class-CUSTOM_GOLD', 'trait-CUSTOM_FAST']);
  });

  it('carries the source times for Last-Modified', () => {
    const [, root] = planImport(cloud, origin).phases;
    expect(root[0].events.map((e) => e.data.occurred_at)).toEqual([undefined, T0, T0, undefined, undefined, undefined]);
  });

  it('splits a provider held by many consumers over several events', () => {
    const many = Array.from({ length: HOLDERS_PER_EVENT + 1 }, (_, i) => consumer(`c${i}`, { 'b-root': { CUSTOM_GOLD: 1 } }));
    const { providerState } = replayed({ ...cloud, consumers: many });
    const state = providerState('b-root');
    expect(state).toMatchObject({ usages: { CUSTOM_GOLD: HOLDERS_PER_EVENT + 1 } });
    const [, root] = planImport({ ...cloud, consumers: many }, origin).phases;
    expect(root[0].events.filter((e) => e.type === 'ProviderAllocationsChanged')).toHaveLength(2);
  });
});

describe('checkUpstreamState', () => {
  it('finds nothing wrong with a sound cloud', () => expect(checkUpstreamState(cloud)).toEqual([]));

  it('names every reference it cannot resolve', () => {
    const broken: UpstreamState = {
      ...cloud,
      providers: [...cloud.providers, provider('orphan', 'nowhere', { traits: ['CUSTOM_NOPE'], inventories: { CUSTOM_NOPE: inventoryWithDefaults({ total: 1 }) } })],
      consumers: [consumer('vm-x', { missing: { VCPU: 0 } })],
    };
    expect(checkUpstreamState(broken)).toEqual([
      'resource provider orphan: its parent nowhere is not in the source',
      'resource provider orphan: inventory of unknown resource class CUSTOM_NOPE',
      'resource provider orphan: unknown trait CUSTOM_NOPE',
      'consumer vm-x: allocation on unknown resource provider missing',
      'consumer vm-x: allocation of 0 VCPU on missing',
    ]);
  });

  it('names a parent cycle', () => {
    const cycle = { ...cloud, consumers: [], providers: [provider('x', 'y'), provider('y', 'x')] };
    expect(checkUpstreamState(cycle)).toEqual(['2 resource providers are not in any tree under a root (a parent cycle)']);
  });
});
