import { comparePositions, LogPosition, RecordedEvent, SqlClient } from '#event-store/index.js';
import type { Projection } from '../projection.js';
import { ProjectionSet } from '../projection-set.js';
import { moveCheckpoints } from '../checkpoints.js';
import { resumePosition } from './resume-position.js';
import { encodePosition, PROJECTED_CHANNEL, readCheckpoints } from './checkpoint-rows.js';

/** The checkpoints stand before where the batch was read from: applying it would skip events. */
export const BEHIND = 'behind' as const;

/**
 * One batch, one transaction: the rows of every projection and their checkpoints commit
 * together or not at all, and the commit wakes the writes waiting for it (NOTIFY is delivered
 * at commit). Each projection gets the events it handles past its own checkpoint, read under the
 * batch's row locks: exactly once even if two projectors ever overlapped, or a checkpoint written
 * inline (which may lag, see moveCheckpoints) is taken over. Returns where the checkpoints stand
 * afterwards, or BEHIND when they stand before `from` (a rebuild swapped in read models that end
 * earlier): then nothing is written and the caller reads again from the checkpoints.
 */
export async function applyBatch(
  tx: SqlClient, projections: readonly Projection[], from: LogPosition, events: readonly RecordedEvent[],
): Promise<LogPosition | undefined | typeof BEHIND> {
  const set = new ProjectionSet(projections);
  await tx.query('BEGIN');
  try {
    const checkpoints = await readCheckpoints(tx, set.names, true);
    if (comparePositions(resumePosition(checkpoints), from) < 0) {
      await tx.query('ROLLBACK');
      return BEHIND;
    }
    for (const [projection, event] of set.handled(events, checkpoints)) await projection.apply(tx, event);
    const advanceTo = events.length > 0 ? events[events.length - 1].position : undefined;
    if (advanceTo) {
      await moveCheckpoints(tx, set.names, advanceTo);
      await tx.query('SELECT pg_notify($1, $2)', [PROJECTED_CHANNEL, encodePosition(advanceTo)]);
    }
    await tx.query('COMMIT');
    return advanceTo;
  } catch (error) {
    await tx.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
