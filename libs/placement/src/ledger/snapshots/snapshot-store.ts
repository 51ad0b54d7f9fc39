import { Inject, Injectable } from '@nestjs/common';
import type { LogPoint } from '#event-store/index.js';
import { READ_DB, ReadDb } from '../../shared/read-db.js';
import { StreamSnapshot, snapshotDigest } from './stream-snapshot.js';

/**
 * Tables of the read models' schema that are caches, not projections: a rebuild leaves them
 * empty, and verify checks them against the log instead of against a replay.
 */
export const CACHE_TABLES: readonly string[] = ['rm_stream_snapshots'];

const COLUMNS = `stream, revision, commit_xid::text AS commit, position::text AS prepare, reach_commit::text AS reach_commit,
  reach_position::text AS reach_prepare, reach_time_us::text AS reach_micros, state, digest`;

export interface StoredSnapshot extends StreamSnapshot {
  /** False when the row's digest does not match its contents: it was changed after it was written. */
  readonly intact: boolean;
}

function toSnapshot(row: Record<string, any>): StoredSnapshot {
  const snapshot: StreamSnapshot = {
    stream: row.stream,
    revision: Number(row.revision),
    position: { commit: BigInt(row.commit), prepare: BigInt(row.prepare) },
    reach: { position: { commit: BigInt(row.reach_commit), prepare: BigInt(row.reach_prepare) }, micros: BigInt(row.reach_micros) },
    state: row.state,
  };
  return { ...snapshot, intact: snapshotDigest(snapshot) === row.digest };
}

/** The rows of rm_stream_snapshots, a cache in the read models' database (either log store). */
@Injectable()
export class StreamSnapshots {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  /** The latest snapshot of the stream holding only events at or before the point, if any. */
  async nearest(stream: string, point: LogPoint): Promise<StoredSnapshot | null> {
    const params: unknown[] = [stream];
    const reached = 'position' in point
      ? `(reach_commit, reach_position) <= ($${params.push(point.position.commit.toString())}::text::xid8, $${params.push(point.position.prepare.toString())}::bigint)`
      : `reach_time_us <= $${params.push(point.time.toString())}::bigint`;
    const { rows } = await this.db.query(
      `SELECT ${COLUMNS} FROM rm_stream_snapshots WHERE stream = $1 AND ${reached} ORDER BY revision DESC LIMIT 1`, params);
    return rows.length === 0 ? null : toSnapshot(rows[0]);
  }

  async ofStream(stream: string): Promise<StoredSnapshot[]> {
    const { rows } = await this.db.query(`SELECT ${COLUMNS} FROM rm_stream_snapshots WHERE stream = $1 ORDER BY revision`, [stream]);
    return rows.map(toSnapshot);
  }

  async streams(): Promise<string[]> {
    return (await this.db.query<{ stream: string }>('SELECT DISTINCT stream FROM rm_stream_snapshots ORDER BY stream')).rows.map((row) => row.stream);
  }

  /** Written once per (stream, revision): two readers racing to write the same one write the same state. */
  async save(snapshots: readonly StreamSnapshot[]): Promise<void> {
    if (snapshots.length === 0) return;
    const column = <T>(pick: (s: StreamSnapshot) => T) => snapshots.map(pick);
    await this.db.query(
      `INSERT INTO rm_stream_snapshots (stream, revision, commit_xid, position, reach_commit, reach_position, reach_time_us, state, digest)
       SELECT s, r, c::xid8, p, rc::xid8, rp, rt, st, d
         FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::text[], $6::bigint[], $7::bigint[], $8::jsonb[], $9::text[])
           AS t(s, r, c, p, rc, rp, rt, st, d)
       ON CONFLICT (stream, revision) DO NOTHING`,
      [column((s) => s.stream), column((s) => s.revision), column((s) => s.position.commit.toString()), column((s) => s.position.prepare.toString()),
        column((s) => s.reach.position.commit.toString()), column((s) => s.reach.position.prepare.toString()), column((s) => s.reach.micros.toString()),
        column((s) => JSON.stringify(s.state)), column((s) => snapshotDigest(s))]);
  }

  /** A snapshot found stale or changed goes, so the next replay past it writes a good one. */
  async discard(stream: string, fromRevision: number): Promise<void> {
    await this.db.query('DELETE FROM rm_stream_snapshots WHERE stream = $1 AND revision >= $2', [stream, fromRevision]);
  }
}
