import type { Pool } from 'pg';
import { inTransaction, START } from '#event-store/index.js';
import { toRecordedEvent } from '#event-store/postgres/rows.js';
import { ALL_PROJECTIONS, inlineProjector } from '#projections/index.js';

/** A consumer's claim (or removal: `resources` null) as if written at `at`. */
export interface PastClaim {
  readonly consumer: string;
  readonly at: Date;
  readonly resources: Readonly<Record<string, number>> | null;
  readonly projectId: string;
  readonly userId?: string;
  readonly consumerType?: string | null;
  /** The provider the resources are on; the usage projection does not read it. */
  readonly provider?: string;
}

const PROVIDER = 'f0000000-0000-4000-8000-00000000000f';

/**
 * Writes consumer events with past times, which the API cannot do (the store stamps each event
 * with its transaction's clock): the same es_streams and es_events rows an append writes, and
 * every inline projection run over them in the same transaction, a batch per transaction.
 * Only the consumer streams are written; usage over time reads nothing else.
 */
export async function appendPastClaims(pool: Pool, claims: readonly PastClaim[], batch = 250): Promise<void> {
  const project = inlineProjector(ALL_PROJECTIONS);
  const generations = new Map<string, number>();
  for (let from = 0; from < claims.length; from += batch) {
    await inTransaction(pool, async (client) => {
      const recorded = [];
      for (const claim of claims.slice(from, from + batch)) {
        const stream = `consumer-${claim.consumer}`;
        const generation = (generations.get(stream) ?? 0) + 1;
        generations.set(stream, generation);
        const [type, data] = claim.resources === null
          ? ['ConsumerRemoved', { generation, v: 1 }]
          : ['ConsumerAllocationsReplaced', {
              allocations: { [claim.provider ?? PROVIDER]: claim.resources }, project_id: claim.projectId, user_id: claim.userId ?? 'user',
              consumer_type: claim.consumerType ?? null, generation, v: 1,
            }];
        const { rows: [head] } = await client.query(
          `INSERT INTO es_streams (stream_id, revision) VALUES ($1, 0)
           ON CONFLICT (stream_id) DO UPDATE SET revision = es_streams.revision + 1 RETURNING revision`, [stream]);
        const { rows } = await client.query(
          `INSERT INTO es_events (stream_id, revision, type, data, metadata, recorded_at) VALUES ($1, $2, $3, $4, '{}', $5)
           RETURNING position, transaction_id, stream_id, revision, type, data, metadata, recorded_at`,
          [stream, head.revision, type, JSON.stringify(data), claim.at]);
        recorded.push(toRecordedEvent(rows[0]));
      }
      await project(client, recorded, recorded.at(-1)?.position ?? START);
    });
  }
}
