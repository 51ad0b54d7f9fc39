import { consumerStream } from '../consumer/consumer.events.js';
import { writtenOrder } from '../consumer/allocation-order.js';
import { providerStream, ProviderHolding } from '../provider/provider.events.js';
import { resourceClassStream } from '../resource-class/resource-class.decider.js';
import { traitStream } from '../trait/trait.decider.js';
import { providerNameStream } from '../provider-name/provider-name.decider.js';
import { PROVIDER_NAMES_BACKFILLED_STREAM, ProviderNamesBackfilled } from '../provider-name/provider-names-backfilled.js';
import { StreamImported } from './stream-imported.js';
import { UpstreamProvider, UpstreamState } from './upstream-state.js';

interface PlannedEvent {
  readonly type: string;
  readonly data: Record<string, unknown>;
}

/** One new stream: its StreamImported marker, then the ordinary events that state the entity. */
export interface StreamWrite {
  readonly stream: string;
  readonly events: readonly PlannedEvent[];
}

/**
 * Phases to append one after the other: names first (classes, traits, and each provider's name
 * stream, so an imported log needs no backfill of them), then providers a tree level at a time
 * (a child's row takes its root from its parent's, which must already be there), then consumers.
 */
export interface ImportPlan {
  readonly phases: readonly (readonly StreamWrite[])[];
  readonly events: number;
}

export interface ImportOrigin {
  readonly source: string;
  readonly importedAt: string;
}

/** A provider's side of allocations in events of this many consumers at most, so none grows huge. */
export const HOLDERS_PER_EVENT = 1000;

/** The events that reproduce `state` exactly, generations included. Call checkUpstreamState first. */
export function planImport(state: UpstreamState, origin: ImportOrigin): ImportPlan {
  const marker: StreamImported = {
    type: 'StreamImported', data: { source: origin.source, source_revision: state.revision, imported_at: origin.importedAt, v: 1 },
  };
  const begin = (stream: string, events: PlannedEvent[]): StreamWrite => ({ stream, events: [marker as PlannedEvent, ...events] });
  const names: StreamWrite[] = [
    ...state.resourceClasses.map((rc) => begin(resourceClassStream(rc.name),
      [{ type: 'ResourceClassCreated', data: { name: rc.name, occurred_at: rc.modifiedAt, v: 1 } }])),
    ...state.traits.map((trait) => begin(traitStream(trait.name),
      [{ type: 'TraitCreated', data: { name: trait.name, occurred_at: trait.modifiedAt, v: 1 } }])),
    ...providerNames(state, begin),
  ];
  const holdings = holdingsByProvider(state);
  const providerPhases = byTreeLevel(state.providers).map((level) =>
    level.map((provider) => begin(providerStream(provider.uuid), providerEvents(provider, holdings.get(provider.uuid)))));
  const consumers = state.consumers.map((consumer) => begin(consumerStream(consumer.uuid), [{
    type: 'ConsumerAllocationsReplaced',
    data: {
      allocations: consumer.allocations, project_id: consumer.projectId, user_id: consumer.userId,
      consumer_type: consumer.consumerType, generation: consumer.generation, occurred_at: consumer.modifiedAt,
      // upstream lists a consumer's allocations in row order, which the source's allocations already follow.
      written_order: writtenOrder(consumer.allocations), v: 1,
    },
  }]));
  const phases = [names, ...providerPhases, consumers].filter((phase) => phase.length > 0);
  const events = phases.reduce((sum, phase) => sum + phase.reduce((n, write) => n + write.events.length, 0), 0);
  return { phases, events };
}

/** Upstream's unique key held each name for one provider: its name stream says so from the start. */
function providerNames(state: UpstreamState, begin: (stream: string, events: PlannedEvent[]) => StreamWrite): StreamWrite[] {
  if (state.providers.length === 0) return [];
  const done: ProviderNamesBackfilled = {
    type: 'ProviderNamesBackfilled', data: { providers: state.providers.length, reserved: state.providers.length, v: 1 },
  };
  return [
    ...state.providers.map((provider) => begin(providerNameStream(provider.name),
      [{ type: 'ProviderNameReserved', data: { name: provider.name, uuid: provider.uuid, v: 1 } }])),
    begin(PROVIDER_NAMES_BACKFILLED_STREAM, [{ type: done.type, data: { ...done.data } }]),
  ];
}

/**
 * Every event carries the provider's final generation: a client that read it from upstream
 * writes with it here. Empty sets are left out; the state they would state is the default.
 */
function providerEvents(provider: UpstreamProvider, holders: Map<string, ProviderHolding> | undefined): PlannedEvent[] {
  const generation = provider.generation;
  const events: PlannedEvent[] = [{
    type: 'ResourceProviderCreated',
    data: { uuid: provider.uuid, name: provider.name, parent_provider_uuid: provider.parentUuid, generation, occurred_at: provider.modifiedAt, v: 1 },
  }];
  if (Object.keys(provider.inventories).length > 0) {
    events.push({
      type: 'InventoriesSet',
      data: { inventories: provider.inventories, generation, occurred_at: provider.inventoriesModifiedAt ?? provider.modifiedAt, v: 1 },
    });
  }
  if (provider.traits.length > 0) events.push({ type: 'TraitsSet', data: { traits: provider.traits, generation, v: 1 } });
  if (provider.aggregates.length > 0) events.push({ type: 'AggregatesSet', data: { aggregates: provider.aggregates, generation, v: 1 } });
  const entries = [...(holders ?? new Map()).entries()];
  for (let i = 0; i < entries.length; i += HOLDERS_PER_EVENT) {
    const consumers = Object.fromEntries(entries.slice(i, i + HOLDERS_PER_EVENT));
    events.push({ type: 'ProviderAllocationsChanged', data: { consumers, generation, v: 1 } });
  }
  return events;
}

function holdingsByProvider(state: UpstreamState): Map<string, Map<string, ProviderHolding>> {
  const byProvider = new Map<string, Map<string, ProviderHolding>>();
  for (const consumer of state.consumers) {
    for (const [provider, resources] of Object.entries(consumer.allocations)) {
      let holders = byProvider.get(provider);
      if (!holders) byProvider.set(provider, holders = new Map());
      holders.set(consumer.uuid, resources);
    }
  }
  return byProvider;
}

/** Providers grouped by depth: roots, their children, and so on. */
export function byTreeLevel(providers: readonly UpstreamProvider[]): UpstreamProvider[][] {
  const children = new Map<string | null, UpstreamProvider[]>();
  for (const provider of providers) {
    const siblings = children.get(provider.parentUuid);
    if (siblings) siblings.push(provider);
    else children.set(provider.parentUuid, [provider]);
  }
  const levels: UpstreamProvider[][] = [];
  let level = children.get(null) ?? [];
  while (level.length > 0) {
    levels.push(level);
    level = level.flatMap((provider) => children.get(provider.uuid) ?? []);
  }
  return levels;
}
