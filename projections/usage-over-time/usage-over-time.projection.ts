import { send, type AppendedEvent, type SqlClient } from '#event-store/index.js';
import { Projection } from '../runner/projection.js';
import { firstChange, hourOf } from './hour-summary.js';
import { Claim, holdingOf, Move, movesOf, SeriesChange, seriesChanges } from './usage-series.js';
import type { UsageOverTimeMemory } from './usage-over-time.memory.js';

const USAGE_OVER_TIME_EVENTS = ['ConsumerAllocationsReplaced', 'ConsumerRemoved'] as const;

interface ConsumerRow {
  revision: string;
  project_id: string;
  user_id: string;
  consumer_type: string | null;
  holding: Record<string, number>;
}

/**
 * Usage per project, user and consumer type, per class, in UTC hours: each consumer event
 * becomes level changes of the series it moves, folded into the hour it happened in. An hour
 * without changes has no row; its level is carried over when reading, so a holding that lasts
 * a month costs nothing until it changes, and the hour holding "now" needs no timer.
 *
 * Idempotent: each consumer remembers the stream revision last applied and older events are
 * skipped, so replaying the log again changes nothing. Order-independent across consumers:
 * everything stored is a sum except an hour's peak, which is recomputed from the hour's changes
 * whenever a change arrives that is not the hour's latest.
 */
export const usageOverTimeProjection: Projection = {
  name: 'usage-over-time',
  handles: USAGE_OVER_TIME_EVENTS,
  twin: { memory: 'usage-over-time', apply: (state: UsageOverTimeMemory, event) => state.apply(event) },
  async apply(tx: SqlClient, event: AppendedEvent<any>) {
    const consumer = event.stream.slice('consumer-'.length);
    const after: Claim | null = event.type === 'ConsumerAllocationsReplaced'
      ? { projectId: event.data.project_id, userId: event.data.user_id, consumerType: event.data.consumer_type ?? null, holding: holdingOf(event.data.allocations) }
      : null;
    if (event.revision === 0 && after) {
      // A consumer's first event: it held nothing before, so what it changes need not wait for
      // the swap's answer. One call stores the consumer and folds the changes, the latter
      // only if it stored the row (a replay that finds the row applied changes nothing).
      const changes = seriesChanges(null, after);
      if (changes.length > 0) return recordChanges(tx, movesOf(null, after), changes, event.recordedAt.getTime(), { consumer, claim: after });
    }
    const known = await swapConsumer(tx, consumer, event.revision, after);
    if (known && Number(known.revision) >= event.revision) return;
    const before: Claim | null = known
      ? { projectId: known.project_id, userId: known.user_id, consumerType: known.consumer_type, holding: known.holding }
      : null;
    await recordChanges(tx, movesOf(before, after), seriesChanges(before, after), event.recordedAt.getTime());
  },
};

/**
 * Stores what the consumer holds from this revision on and answers what it held before, in one
 * statement (a CTE reads the row as it was before the write). A revision already applied
 * changes nothing. A removal keeps the row, holding nothing, for its revision; a removal of a
 * consumer never seen writes nothing: there is nothing to take back and no one to charge.
 */
async function swapConsumer(tx: SqlClient, consumer: string, revision: number, after: Claim | null): Promise<ConsumerRow | undefined> {
  const write = after
    ? `INSERT INTO rm_usage_consumers (consumer_uuid, revision, project_id, user_id, consumer_type, holding)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (consumer_uuid) DO UPDATE SET revision = EXCLUDED.revision, project_id = EXCLUDED.project_id,
         user_id = EXCLUDED.user_id, consumer_type = EXCLUDED.consumer_type, holding = EXCLUDED.holding
       WHERE rm_usage_consumers.revision < EXCLUDED.revision`
    : `UPDATE rm_usage_consumers SET revision = $2, holding = '{}' WHERE consumer_uuid = $1 AND revision < $2`;
  const params = after
    ? [consumer, revision, after.projectId, after.userId, after.consumerType, JSON.stringify(after.holding)]
    : [consumer, revision];
  const { rows } = await tx.query<ConsumerRow>(
    `WITH before AS (SELECT revision, project_id, user_id, consumer_type, holding FROM rm_usage_consumers WHERE consumer_uuid = $1),
          written AS (${write})
     SELECT * FROM before`, params);
  return rows[0];
}

/**
 * The fold, one call of rm_usage_fold (migrations 1700000000050 and 051): adds the claimants' moves, folds
 * the series' changes into their hour rows and recomputes the peaks a late change leaves unknown.
 * With a consumer's first claim, it also stores the consumer, and folds only if that stored the
 * row. It needs no answer, so on an append it rides with the COMMIT. A writer holds its hour
 * rows' locks until it commits, so a move another writer adds to these hours is committed before
 * the fold gets the rows, and the recomputation (a later statement, a later snapshot) reads it.
 * Each event falls in one hour, so all of its rows share it.
 */
const FOLD = `SELECT rm_usage_fold($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz, $6::timestamptz,
  $7::bigint[], $8::text[], $9::bigint[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text, $15::text, $16::text, $17::text, $18::jsonb)`;

export async function recordChanges(
  tx: SqlClient, moves: readonly Move[], changes: readonly SeriesChange[], at: number, first?: { consumer: string; claim: Claim },
): Promise<void> {
  if (changes.length === 0) return;
  const hour = hourOf(at);
  const firsts = changes.map((c) => firstChange(hour, { at, delta: c.delta }));
  const claim = first?.claim;
  await send(tx, FOLD, [changes.map((c) => c.projectId), changes.map((c) => c.userId), changes.map((c) => c.consumerType),
    changes.map((c) => c.resourceClass), new Date(hour), new Date(at), firsts.map((f) => f.net), firsts.map((f) => f.unitMs.toString()),
    firsts.map((f) => f.peakAboveStart), moves.map((m) => m.projectId), moves.map((m) => m.userId), moves.map((m) => m.consumerType),
    moves.map((m) => JSON.stringify(m.deltas)), first?.consumer ?? null, claim?.projectId ?? null, claim?.userId ?? null,
    claim?.consumerType ?? null, claim ? JSON.stringify(claim.holding) : null]);
}
