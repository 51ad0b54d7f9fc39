import { createHash, Hash } from 'node:crypto';
import type { LogPosition, SqlClient } from '#event-store/index.js';
import { NEWEST_KEPT, snapshotsToDrop } from './snapshot-retention.js';

/** Where a stored snapshot stands in the log. */
export interface SnapshotHead {
  readonly id: string;
  readonly format: number;
  readonly position: LogPosition;
  /** Events folded in, from the log's start. */
  readonly events: number;
  /** The event at `position` (null for an empty log). */
  readonly last: { readonly stream: string; readonly revision: number } | null;
  readonly parts: number;
}

export interface NewSnapshot extends Omit<SnapshotHead, 'id' | 'parts'> {
  readonly payload: readonly string[];
}

/** Held for the length of one insert: of processes snapshotting at once, one writes. */
const WRITER_LOCK = "hashtext('placement: candidate snapshot')";

/** Over the parts in order, each with its length, so no two ways of cutting one text hash alike. */
function checksum(parts: Iterable<string>, hash: Hash = createHash('sha256')): Buffer {
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest();
}

interface HeadRow { id: string; format: number; commit_pos: string; prepare_pos: string; events: string; last_stream: string | null; last_revision: string | null; parts: number }

const toHead = (row: HeadRow): SnapshotHead => ({
  id: row.id, format: row.format, position: { commit: BigInt(row.commit_pos), prepare: BigInt(row.prepare_pos) }, events: Number(row.events),
  last: row.last_stream === null ? null : { stream: row.last_stream, revision: Number(row.last_revision) }, parts: row.parts,
});

const HEAD_COLUMNS = 'id::text, format, commit_pos::text, prepare_pos::text, events::text, last_stream, last_revision::text, parts';

/** rm_candidate_snapshots and their parts (migration 1700000000031): the candidate view's snapshots. */
export class CandidateSnapshotStore {
  constructor(private readonly db: SqlClient) {}

  /** Every stored snapshot of this format, newest position first, without payloads. */
  async heads(format: number): Promise<SnapshotHead[]> {
    const { rows } = await this.db.query<HeadRow>(
      `SELECT ${HEAD_COLUMNS} FROM rm_candidate_snapshots WHERE format = $1 ORDER BY commit_pos DESC, prepare_pos DESC`, [format]);
    return rows.map(toHead);
  }

  /**
   * Hands `take` each part in order, one query each, so no more than one part's text is held at
   * once; true if every part was there and they match the checksum written with them (what
   * `take` built is to be thrown away otherwise).
   */
  async readParts(head: SnapshotHead, take: (part: string) => void): Promise<boolean> {
    const hash = createHash('sha256');
    for (let part = 0; part < head.parts; part++) {
      const { rows } = await this.db.query<{ payload: string }>(
        'SELECT payload FROM rm_candidate_snapshot_parts WHERE snapshot_id = $1 AND part = $2', [head.id, part]);
      if (rows.length === 0) return false;
      hash.update(`${rows[0].payload.length}:`).update(rows[0].payload);
      take(rows[0].payload);
    }
    const { rows } = await this.db.query<{ checksum: Buffer }>('SELECT checksum FROM rm_candidate_snapshots WHERE id = $1', [head.id]);
    return rows.length > 0 && hash.digest().equals(rows[0].checksum);
  }

  /**
   * Stores the snapshot unless another writer holds the lock right now, or one at the same or a
   * later position is already there; then thins the older ones (snapshot-retention.ts). One statement, so the
   * lock lasts exactly as long as the insert and the parts come with their head or not at all.
   * True if this one was written.
   */
  async write(snapshot: NewSnapshot): Promise<boolean> {
    const { rows } = await this.db.query(
      `WITH writer AS (SELECT pg_try_advisory_xact_lock(${WRITER_LOCK}) AS ok),
       head AS (
         INSERT INTO rm_candidate_snapshots (format, commit_pos, prepare_pos, events, last_stream, last_revision, checksum, parts)
         SELECT $1, $2::numeric, $3::numeric, $4, $5, $6, $7, cardinality($8::text[]) FROM writer
          WHERE writer.ok AND NOT EXISTS (
            SELECT 1 FROM rm_candidate_snapshots
             WHERE format = $1 AND (commit_pos, prepare_pos) >= ($2::numeric, $3::numeric))
         ON CONFLICT DO NOTHING
         RETURNING id)
       INSERT INTO rm_candidate_snapshot_parts (snapshot_id, part, payload)
       SELECT head.id, p.n - 1, p.payload FROM head, unnest($8::text[]) WITH ORDINALITY AS p(payload, n)
       RETURNING snapshot_id`,
      [snapshot.format, snapshot.position.commit.toString(), snapshot.position.prepare.toString(), snapshot.events,
        snapshot.last?.stream ?? null, snapshot.last?.revision ?? null, checksum(snapshot.payload), snapshot.payload]);
    if (rows.length === 0) return false;
    const current = await this.heads(snapshot.format);
    // Another format is for another build: once this one has its two, those only cost space.
    await this.db.query(
      'DELETE FROM rm_candidate_snapshots WHERE id::text = ANY($1::text[]) OR (format <> $2 AND $3)',
      [snapshotsToDrop(current), snapshot.format, current.length >= NEWEST_KEPT]);
    return true;
  }
}
