import { Inject, Injectable } from '@nestjs/common';
import { ProviderState, providerStream } from '#domain/index.js';
import { ConsumerState, consumerStream } from '#domain/consumer/index.js';
import { EVENT_STORE, EventStore, LogPoint } from '#event-store/index.js';
import { AsOf, asOfPoint } from '../ledger/as-of.js';
import { pastMembers } from '../ledger/past-membership.js';
import { CONSUMER_FOLD, PROVIDER_FOLD } from '../ledger/snapshots/folds.js';
import { StreamStates } from '../ledger/snapshots/stream-states.js';
import { RestoreScope } from './undo-request.js';

/** A tree deeper than this is a corrupted log, not a tree. */
const MAX_DEPTH = 1000;

/** The streams a restore takes back, each with its state at the point. */
export interface PastStates {
  readonly providers: Map<string, ProviderState>;
  readonly consumers: Map<string, ConsumerState>;
}

/**
 * Resolves a restore's scope to streams and their states at the point, with the as-of machinery
 * (StreamStates: snapshots, then the stream's events up to the point). Who belonged where is asked
 * of the log as it stood then (trees, aggregates, projects), never of the read models, which only
 * know now. Each of those questions is a stream lookup of the port (PAST_MEMBERSHIP), which
 * costs what it finds, not the log's length.
 */
@Injectable()
export class RestoreTargets {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore, private readonly states: StreamStates) {}

  async resolve(scope: RestoreScope, asOf: AsOf): Promise<PastStates> {
    const until = asOfPoint(asOf);
    const providers = new Map<string, ProviderState>();
    const consumers = new Map<string, ConsumerState>();
    const addProvider = async (uuid: string) => {
      if (!providers.has(uuid)) providers.set(uuid, await this.states.at(providerStream(uuid), until, PROVIDER_FOLD));
      return providers.get(uuid)!;
    };
    for (const uuid of scope.providers) await addProvider(uuid);
    if (scope.tree) await this.addDescendants([...providers.keys()], until, addProvider);
    for (const aggregate of scope.aggregates) {
      for (const uuid of await this.store.streamsWith(pastMembers('membersOfAggregate', aggregate, until))) {
        const provider = uuid.slice('provider-'.length);
        const named = providers.has(provider);
        const state = await addProvider(provider);
        if (!named && (state.status !== 'active' || !state.aggregates.includes(aggregate))) providers.delete(provider);
      }
    }
    const addConsumer = async (uuid: string) => {
      if (!consumers.has(uuid)) consumers.set(uuid, await this.states.at(consumerStream(uuid), until, CONSUMER_FOLD));
    };
    if (scope.withConsumers) {
      for (const state of providers.values()) if (state.status === 'active') for (const uuid of Object.keys(state.allocations)) await addConsumer(uuid);
    }
    for (const uuid of scope.consumers) await addConsumer(uuid);
    for (const project of scope.projects) {
      for (const stream of await this.store.streamsWith(pastMembers('consumersOfProject', project, until))) {
        const uuid = stream.slice('consumer-'.length);
        const named = consumers.has(uuid);
        await addConsumer(uuid);
        const state = consumers.get(uuid)!;
        if (!named && (state.status !== 'active' || state.projectId !== project)) consumers.delete(uuid);
      }
    }
    return { providers, consumers };
  }

  /** Providers whose parent was one of these at the point, and theirs, down the tree. */
  private async addDescendants(roots: string[], until: LogPoint, add: (uuid: string) => Promise<ProviderState>): Promise<void> {
    let level = roots;
    for (let depth = 0; level.length > 0 && depth < MAX_DEPTH; depth++) {
      const next: string[] = [];
      for (const parent of level) {
        const named = await this.store.streamsWith(pastMembers('childrenOf', parent, until));
        for (const stream of named) {
          const uuid = stream.slice('provider-'.length);
          const state = await add(uuid);
          if (state.status === 'active' && state.parentUuid === parent && !roots.includes(uuid)) next.push(uuid);
        }
      }
      level = next;
    }
  }
}
