import { Inject, Injectable } from '@nestjs/common';
import { ActiveProvider, ProviderState, providerStream } from '#domain/index.js';
import { ConsumerState, consumerStream } from '#domain/consumer/index.js';
import { EVENT_STORE, EventStore, LogPoint } from '#event-store/index.js';
import { AsOf, asOfPoint } from './as-of.js';
import { pastMembers } from './past-membership.js';
import { rootOf } from './as-of-state.js';
import { mapLimited, STREAMS_AT_ONCE } from './map-limited.js';
import { StreamStates } from './snapshots/stream-states.js';
import { CONSUMER_FOLD as CONSUMER, PROVIDER_FOLD as PROVIDER } from './snapshots/folds.js';

/** A tree deeper than this is not a tree but a corrupted log; stop walking up. */
const MAX_DEPTH = 1000;

/**
 * Rebuilds states as they were at a point of the log, from the streams themselves: every
 * event up to the point, folded with the domain's evolve functions (from the nearest stream
 * snapshot, see snapshots/stream-states.ts). Exact by construction.
 */
@Injectable()
export class LedgerReplayer {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore, private readonly states: StreamStates) {}

  async providers(uuids: readonly string[], asOf: AsOf): Promise<Map<string, ProviderState>> {
    const until = asOfPoint(asOf);
    const states = await mapLimited(uuids, STREAMS_AT_ONCE, (uuid) => this.states.at(providerStream(uuid), until, PROVIDER));
    return new Map(uuids.map((uuid, i) => [uuid, states[i]]));
  }

  async consumers(uuids: readonly string[], asOf: AsOf): Promise<Map<string, ConsumerState>> {
    return this.consumersAt(uuids.map((uuid) => consumerStream(uuid)), asOfPoint(asOf)).then((states) =>
      new Map(uuids.map((uuid, i) => [uuid, states[i]])));
  }

  /** The provider and the root of its tree then (parents can move from 1.37), or null if it did not exist. */
  async providerWithRoot(uuid: string, asOf: AsOf): Promise<{ provider: ActiveProvider; rootUuid: string } | null> {
    const known = await this.providers([uuid], asOf);
    const provider = known.get(uuid)!;
    if (provider.status !== 'active') return null;
    let next = provider.parentUuid;
    for (let depth = 0; next && !known.has(next) && depth < MAX_DEPTH; depth++) {
      const parent = (await this.providers([next], asOf)).get(next)!;
      known.set(next, parent);
      next = parent.status === 'active' ? parent.parentUuid : null;
    }
    const parentOf = (id: string) => {
      const state = known.get(id);
      return state?.status === 'active' ? state.parentUuid : undefined;
    };
    return { provider, rootUuid: rootOf(uuid, parentOf) };
  }

  /**
   * Every consumer that could belong to the project at the point: any whose stream named the
   * project up to then (a consumer's project can change, so the last write decides, after replay).
   * A stream lookup of the port: it costs what it finds, not the log's length.
   */
  async consumersNamingProject(projectId: string, asOf: AsOf): Promise<ConsumerState[]> {
    const until = asOfPoint(asOf);
    const named = await this.store.streamsWith(pastMembers('consumersOfProject', projectId, until));
    return this.consumersAt(named, until);
  }

  private consumersAt(streams: readonly string[], until: LogPoint): Promise<ConsumerState[]> {
    return mapLimited(streams, STREAMS_AT_ONCE, (stream) => this.states.at(stream, until, CONSUMER));
  }
}
