import {
  ProviderState, providerDecider, providerNameDecider, providerNameStream, providerStream, UndoInput, UndoMode, Target,
} from '#domain/index.js';
import { ConsumerState, consumerStream, evolveConsumer, initialConsumerState } from '#domain/consumer/index.js';
import { EventStore } from '#event-store/index.js';
import { ProviderLookups } from '../read-models/provider-lookups.js';
import { Attempt } from '../shared/attempt.js';
import { ReadDb } from '../shared/read-db.js';

const CONSUMER = { evolve: evolveConsumer, initialState: initialConsumerState };

/** The streams to take back, each with the state it returns to. */
export interface Targets {
  readonly providers: ReadonlyMap<string, ProviderState>;
  readonly consumers: ReadonlyMap<string, ConsumerState>;
}

/**
 * Reads, inside the runner's attempt, everything the plan is decided on: the streams it may write
 * loaded through the attempt (their revisions are what the append expects, so a write landing
 * meanwhile fails it and the plan is decided again), the rest from the log and the read models.
 */
export async function gatherUndoInput(
  mode: UndoMode, targets: Targets, attempt: Attempt, store: EventStore, lookups: ProviderLookups, db: ReadDb,
): Promise<UndoInput> {
  const providersNow: Record<string, ProviderState> = {};
  const loadProvider = async (uuid: string) => { providersNow[uuid] ??= await attempt.load(providerStream(uuid), providerDecider); };
  const consumersNow: Record<string, ConsumerState> = {};
  for (const uuid of targets.consumers.keys()) consumersNow[uuid] = await attempt.load(consumerStream(uuid), CONSUMER);
  for (const uuid of targets.providers.keys()) await loadProvider(uuid);
  // Providers the consumers hold on now or held on then, and the parents the providers come back under.
  for (const uuid of targets.consumers.keys()) {
    for (const state of [consumersNow[uuid], targets.consumers.get(uuid)!]) {
      if (state.status === 'active') for (const provider of Object.keys(state.allocations)) await loadProvider(provider);
    }
  }
  for (const state of targets.providers.values()) if (state.status === 'active' && state.parentUuid) await loadProvider(state.parentUuid);

  const lastGeneration = async (stream: string, active: boolean) => {
    if (active) return null;
    const [last] = await store.readStreamRange(stream, { direction: 'backwards', limit: 1 });
    const generation = (last?.data as { generation?: unknown } | undefined)?.generation;
    return typeof generation === 'number' ? generation : null;
  };
  const providerTargets: Record<string, Target<ProviderState>> = {};
  const nameHolders: Record<string, string | null> = {};
  const childrenNow: Record<string, string[]> = {};
  const classes = new Set<string>();
  const traits = new Set<string>();
  for (const [uuid, then] of targets.providers) {
    const now = providersNow[uuid];
    providerTargets[uuid] = { then, lastGeneration: await lastGeneration(providerStream(uuid), now.status === 'active') };
    if (then.status === 'active') {
      if (now.status !== 'active' || now.name !== then.name) {
        const held = await attempt.load(providerNameStream(then.name), providerNameDecider);
        nameHolders[then.name] = held.status === 'held' ? held.provider : null;
      }
      Object.keys(then.inventories).forEach((rc) => classes.add(rc));
      then.traits.forEach((trait) => traits.add(trait));
    } else if (now.status === 'active') {
      const { rows } = await db.query<{ uuid: string }>('SELECT uuid FROM rm_resource_providers WHERE parent_provider_uuid = $1', [uuid]);
      childrenNow[uuid] = rows.map((row) => row.uuid);
    }
  }
  const consumerTargets: Record<string, Target<ConsumerState>> = {};
  for (const [uuid, then] of targets.consumers) {
    consumerTargets[uuid] = { then, lastGeneration: await lastGeneration(consumerStream(uuid), consumersNow[uuid].status === 'active') };
    if (then.status === 'active') for (const holding of Object.values(then.allocations)) Object.keys(holding as object).forEach((rc) => classes.add(rc));
  }
  return {
    mode, providersNow, providerTargets, consumersNow, consumerTargets, nameHolders, childrenNow,
    unknownClasses: await lookups.unknownResourceClasses([...classes]), unknownTraits: await lookups.unknownTraits([...traits]),
  };
}
