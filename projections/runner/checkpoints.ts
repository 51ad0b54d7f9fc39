import { send, THIS_TRANSACTION, type LogPosition, type SqlClient } from '#event-store/index.js';
import { Projection } from './projection.js';

/** Every projection has its row from the start, so moving a checkpoint is a plain UPDATE. */
export async function seedProjectionCheckpoints(db: SqlClient, projections: readonly Projection[]): Promise<void> {
  await db.query('INSERT INTO rm_projection_checkpoints (projection) SELECT unnest($1::text[]) ON CONFLICT (projection) DO NOTHING',
    [projections.map((projection) => projection.name)]);
}

/**
 * Moves the checkpoints of `names` forward to `position`, never back. Rows another append holds
 * are skipped rather than waited for: a hot row every append must lock would queue all commits
 * behind each other, and the next append moves the checkpoint past both anyway. Needs no
 * answer: on an append it rides with the COMMIT (send).
 */
export function moveCheckpoints(tx: SqlClient, names: readonly string[], position: LogPosition | typeof THIS_TRANSACTION): Promise<void> {
  if (position === THIS_TRANSACTION) return send(tx, MOVE_TO_THIS_TRANSACTION, [names]);
  return send(tx, MOVE_TO, [names, position.commit.toString(), position.prepare.toString()]);
}

const moveTo = (commit: string, position: string) =>
  `UPDATE rm_projection_checkpoints SET commit_xid = ${commit}, position = ${position}, updated_at = now()
     WHERE projection IN (
       SELECT projection FROM rm_projection_checkpoints
       WHERE projection = ANY($1::text[]) AND (commit_xid, position) < (${commit}, ${position})
       FOR UPDATE SKIP LOCKED)`;
const MOVE_TO = moveTo('$2::text::xid8', '$3::bigint');
/**
 * This transaction's last event: es_append numbered the events it inserted from the log's
 * sequence in this session, in order, so the sequence's last value here is the last event's.
 */
const MOVE_TO_THIS_TRANSACTION = moveTo('pg_current_xact_id()', "currval('es_events_position_seq')");
