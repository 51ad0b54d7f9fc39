import { comparePositions, LogPosition, RecordedEvent, SqlClient } from '#event-store/index.js';
import type { Projection } from '../projection.js';
import { planBatch, resumePosition } from './batch-plan.js';
import { encodePosition, PROJECTED_CHANNEL, readCheckpoints } from './checkpoint-rows.js';

/** The checkpoints stand before where the batch was read from: applying it would skip events. */
export const BEHIND = 'behind' as const;

/**
 * One batch, one transaction: the rows of every projection and their checkpoints commit
 * together or not at all, and the commit wakes the writes waiting for it (NOTIFY is delivered
 * at commit). Returns where the checkpoints stand afterwards, or BEHIND when they stand before
 * `from` (a rebuild swapped in read models that end earlier): then nothing is written and the
 * caller reads again from the checkpoints.
 */
export async function applyBatch(
  tx: SqlClient, projections: readonly Projection[], from: LogPosition, events: readonly RecordedEvent[],
): Promise<LogPosition | undefined | typeof BEHIND> {
  const names = projections.map((projection) => projection.name);
  await tx.query('BEGIN');
  try {
    const checkpoints = await readCheckpoints(tx, names, true);
    if (comparePositions(resumePosition(checkpoints), from) < 0) {
      await tx.query('ROLLBACK');
      return BEHIND;
    }
    const plan = planBatch(projections, checkpoints, events);
    for (const { projection, events: mine } of plan.work) {
      for (const event of mine) await projection.apply(tx, event);
    }
    if (plan.advanceTo) {
      const to = plan.advanceTo;
      await tx.query(
        `UPDATE rm_projection_checkpoints SET commit_xid = $1::text::xid8, position = $2, updated_at = now()
         WHERE projection = ANY($3::text[]) AND (commit_xid, position) < ($1::text::xid8, $2::bigint)`,
        [to.commit.toString(), to.prepare.toString(), names]);
      await tx.query('SELECT pg_notify($1, $2)', [PROJECTED_CHANNEL, encodePosition(to)]);
    }
    await tx.query('COMMIT');
    return plan.advanceTo;
  } catch (error) {
    await tx.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
