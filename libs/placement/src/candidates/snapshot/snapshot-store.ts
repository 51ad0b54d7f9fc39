import { createHash } from 'node:crypto';
import type { LogPosition, SqlClient } from '../../../../event-store/src/index.js';


/** Where a stored snapshot stands in the log. */
export interface SnapshotHead {
  readonly id: string;
  readonly format: number;
  readonly position: LogPosition;
  /** Events folded in, from the log's start. */
  readonly events: number;
  /** The event at `position` (null for an empty log). */
  readonly last: { readonly stream: string; readonly revision: number } | null;
}

export interface NewSnapshot extends Omit<SnapshotHead, 'id'> {
  readonly payload: string;
}

/** How many snapshots stay: the newest, and one before it in case the newest proves unreadable. */
const KEPT = 2;

/** Held for the length of one insert: of processes snapshotting at once, one writes. */
const WRITER_LOCK = "hashtext('placement: candidate snapshot')";

const checksum = (payload: string) => createHash('sha256').update(payload).digest();

interface HeadRow { id: string; format: number; commit_pos: string; prepare_pos: string; events: string; last_stream: string | null; last_revision: string | null }

const toHead = (row: HeadRow): SnapshotHead => ({
  id: row.id, format: row.format, position: { commit: BigInt(row.commit_pos), prepare: BigInt(row.prepare_pos) }, events: Number(row.events),
  last: row.last_stream === null ? null : { stream: row.last_stream, revision: Number(row.last_revision) },
});

const HEAD_COLUMNS = 'id::text, format, commit_pos::text, prepare_pos::text, events::text, last_stream, last_revision::text';

/** rm_candidate_snapshots (migration 1700000000031): the candidate view's snapshots, newest first. */
export class CandidateSnapshotStore {
  constructor(private readonly db: SqlClient) {}

  /** Every stored snapshot of this format, newest position first, without payloads. */
  async heads(format: number): Promise<SnapshotHead[]> {
    const { rows } = await this.db.query<HeadRow>(
      `SELECT ${HEAD_COLUMNS} FROM rm_candidate_snapshots WHERE format = $1 ORDER BY commit_pos DESC, prepare_pos DESC`, [format]);
    return rows.map(toHead);
  }

  /** The payload, or null if it is gone or does not match the checksum written with it. */
  async payload(id: string): Promise<string | null> {
    const { rows } = await this.db.query<{ payload: string; checksum: Buffer }>(
      'SELECT payload, checksum FROM rm_candidate_snapshots WHERE id = $1', [id]);
    if (rows.length === 0) return null;
    return checksum(rows[0].payload).equals(rows[0].checksum) ? rows[0].payload : null;
  }

  /**
   * Stores the snapshot unless another writer holds the lock right now, or one at the same or a
   * later position is already there; then drops all but the newest ones. One statement, so the
   * lock lasts exactly as long as the insert. True if this one was written.
   */
  async write(snapshot: NewSnapshot): Promise<boolean> {
    const { rows } = await this.db.query(
      `WITH writer AS (SELECT pg_try_advisory_xact_lock(${WRITER_LOCK}) AS ok)
       INSERT INTO rm_candidate_snapshots (format, commit_pos, prepare_pos, events, last_stream, last_revision, checksum, payload)
       SELECT $1, $2::numeric, $3::numeric, $4, $5, $6, $7, $8 FROM writer
        WHERE writer.ok AND NOT EXISTS (
          SELECT 1 FROM rm_candidate_snapshots
           WHERE format = $1 AND (commit_pos, prepare_pos) >= ($2::numeric, $3::numeric))
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [snapshot.format, snapshot.position.commit.toString(), snapshot.position.prepare.toString(), snapshot.events,
        snapshot.last?.stream ?? null, snapshot.last?.revision ?? null, checksum(snapshot.payload), snapshot.payload]);
    if (rows.length === 0) return false;
    await this.db.query(
      `DELETE FROM rm_candidate_snapshots WHERE id NOT IN (
         SELECT id FROM rm_candidate_snapshots ORDER BY format = $1 DESC, commit_pos DESC, prepare_pos DESC LIMIT ${KEPT})`,
      [snapshot.format]);
    return true;
  }
}
