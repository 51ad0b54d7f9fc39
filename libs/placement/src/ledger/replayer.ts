import { Inject, Injectable } from '@nestjs/common';
import { ActiveProvider, ProviderState, providerStream } from '../../../domain/src/index.js';
import { ConsumerState, consumerStream } from '../../../domain/src/consumer/index.js';
import { READ_DB, ReadDb } from '../shared/read-db.js';
import { AsOf, asOfCondition } from './as-of.js';
import { consumerAt, providerAt, rootOf } from './as-of-state.js';
import { LEDGER_EVENT_COLUMNS, LedgerEvent, toLedgerEvent } from './ledger-event.js';

/** A tree deeper than this is not a tree but a corrupted log; stop walking up. */
const MAX_DEPTH = 1000;

/**
 * Rebuilds states as they were at a point of the log, from the streams themselves: every
 * event up to the point, folded with the domain's evolve functions. Exact by construction.
 */
@Injectable()
export class LedgerReplayer {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  async providers(uuids: readonly string[], asOf: AsOf): Promise<Map<string, ProviderState>> {
    const streams = await this.streams(uuids.map(providerStream), asOf);
    return new Map(uuids.map((uuid) => [uuid, providerAt(streams.get(providerStream(uuid)) ?? [])]));
  }

  async consumers(uuids: readonly string[], asOf: AsOf): Promise<Map<string, ConsumerState>> {
    const streams = await this.streams(uuids.map(consumerStream), asOf);
    return new Map(uuids.map((uuid) => [uuid, consumerAt(streams.get(consumerStream(uuid)) ?? [])]));
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
   */
  async consumersNamingProject(projectId: string, asOf: AsOf): Promise<ConsumerState[]> {
    const params: unknown[] = [projectId];
    const inCandidate = asOfCondition(asOf, params, 'x');
    const inStream = asOfCondition(asOf, params, 'e');
    const { rows } = await this.db.query(
      `SELECT ${LEDGER_EVENT_COLUMNS} FROM es_events e
        WHERE e.stream_id IN (SELECT DISTINCT x.stream_id FROM es_events x
                               WHERE x.type = 'ConsumerAllocationsReplaced' AND x.data->>'project_id' = $1 AND ${inCandidate})
          AND ${inStream}
        ORDER BY e.stream_id, e.revision`,
      params,
    );
    return [...group(rows.map(toLedgerEvent)).values()].map(consumerAt);
  }

  private async streams(streams: readonly string[], asOf: AsOf): Promise<Map<string, LedgerEvent[]>> {
    if (streams.length === 0) return new Map();
    const params: unknown[] = [streams];
    const bounded = asOfCondition(asOf, params, 'e');
    const { rows } = await this.db.query(
      `SELECT ${LEDGER_EVENT_COLUMNS} FROM es_events e
        WHERE e.stream_id = ANY($1::text[]) AND ${bounded} ORDER BY e.stream_id, e.revision`,
      params,
    );
    return group(rows.map(toLedgerEvent));
  }
}

function group(events: readonly LedgerEvent[]): Map<string, LedgerEvent[]> {
  const byStream = new Map<string, LedgerEvent[]>();
  for (const event of events) {
    const list = byStream.get(event.stream) ?? [];
    list.push(event);
    byStream.set(event.stream, list);
  }
  return byStream;
}
