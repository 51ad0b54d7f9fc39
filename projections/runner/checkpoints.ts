import type { LogPosition, SqlClient } from '#event-store/index.js';
import { Projection } from './projection.js';

/** Every projection has its row from the start, so moving a checkpoint is a plain UPDATE. */
export async function seedProjectionCheckpoints(db: SqlClient, projections: readonly Projection[]): Promise<void> {
  await db.query('INSERT INTO rm_projection_checkpoints (projection) SELECT unnest($1::text[]) ON CONFLICT (projection) DO NOTHING',
    [projections.map((projection) => projection.name)]);
}

const PROJECTION_NAME = /^[a-z0-9_-]+$/;

/**
 * The statement that moves the checkpoints of `names` forward to `position`, never back. Rows
 * another append holds are skipped rather than waited for: a hot row every append must lock would
 * queue all commits behind each other, and the next append moves the checkpoint past both anyway.
 * Literals only (no parameters), so the store can send it in the same round trip as its COMMIT:
 * only digits and the projections' own names are written into it.
 */
export function checkpointStatement(names: readonly string[], position: LogPosition): string {
  const bad = names.find((name) => !PROJECTION_NAME.test(name));
  if (bad !== undefined) throw new Error(`projection name ${JSON.stringify(bad)} is not one a statement may carry`);
  const commit = BigInt(position.commit).toString();
  const prepare = BigInt(position.prepare).toString();
  return `UPDATE rm_projection_checkpoints SET commit_xid = '${commit}'::xid8, position = ${prepare}, updated_at = now()
     WHERE projection IN (
       SELECT projection FROM rm_projection_checkpoints
       WHERE projection IN (${names.map((name) => `'${name}'`).join(', ')}) AND (commit_xid, position) < ('${commit}'::xid8, ${prepare}::bigint)
       FOR UPDATE SKIP LOCKED)`;
}
