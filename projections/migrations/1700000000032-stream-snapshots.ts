import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * rm_stream_snapshots: a cache of provider and consumer states at some revisions of their
 * streams, so as_of replays start near the asked point instead of at the stream's first event.
 * Not a projection: rebuild leaves it empty (as_of refills it), verify checks it against the log,
 * and a missing, stale or corrupted row only costs time (see libs/placement/src/ledger/snapshots).
 * reach_*: the latest position and time among revisions 0..revision, which a PostgreSQL log can
 * hold out of revision order (a transaction that began first may lock the stream last).
 */
export class StreamSnapshots1700000000032 implements MigrationInterface {
  name = 'StreamSnapshots1700000000032';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_stream_snapshots (
        stream text NOT NULL,
        revision bigint NOT NULL,
        commit_xid xid8 NOT NULL,
        position bigint NOT NULL,
        reach_commit xid8 NOT NULL,
        reach_position bigint NOT NULL,
        reach_time_us bigint NOT NULL,
        state jsonb NOT NULL,
        digest text NOT NULL,
        PRIMARY KEY (stream, revision))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_stream_snapshots');
  }
}
