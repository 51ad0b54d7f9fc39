import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * rm_candidate_snapshots: the candidate index (providers, names, project tally) as of a log
 * position, so a starting API reads it and the log's tail instead of the whole log. A cache:
 * losing it (a rebuild's swap makes the table anew) only costs the next start a replay.
 * Positions are numeric, not xid8, since a KurrentDB log's positions land here too.
 */
export class CandidateSnapshots1700000000031 implements MigrationInterface {
  name = 'CandidateSnapshots1700000000031';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_candidate_snapshots (
        id bigserial PRIMARY KEY,
        format integer NOT NULL,
        commit_pos numeric(20, 0) NOT NULL,
        prepare_pos numeric(20, 0) NOT NULL,
        -- Events the snapshot holds, counted from the log's start: how far behind a process is.
        events bigint NOT NULL,
        -- The event at the position, looked up at load: a log rewound or replaced under the snapshot is noticed.
        last_stream text NULL,
        last_revision bigint NULL,
        -- sha256 over the parts' text in order.
        checksum bytea NOT NULL,
        parts integer NOT NULL,
        written_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (commit_pos, prepare_pos, format)
      )`);
    // The payload in parts of JSON (view-codec.ts), read one at a time: text, where bytea would
    // come off the wire as hex twice its size.
    await q.query(`
      CREATE TABLE rm_candidate_snapshot_parts (
        snapshot_id bigint NOT NULL REFERENCES rm_candidate_snapshots (id) ON DELETE CASCADE,
        part integer NOT NULL,
        payload text NOT NULL,
        PRIMARY KEY (snapshot_id, part)
      )`);
    // Compressing would only cost CPU on every write and read: parts are read whole, locally.
    await q.query('ALTER TABLE rm_candidate_snapshot_parts ALTER COLUMN payload SET STORAGE EXTERNAL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_candidate_snapshot_parts');
    await q.query('DROP TABLE rm_candidate_snapshots');
  }
}
