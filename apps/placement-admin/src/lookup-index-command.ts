import { Pool } from 'pg';
import type { KurrentEventStore } from '#event-store/kurrent/kurrent-event-store.js';
import { AdminLog } from './admin-log.js';
import type { AdminIo } from './admin-io.js';

export const LOOKUP_INDEX_USAGE = `  index-lookups       with the log in KurrentDB: write the stream lookups' index entries (a
                      restore's scope, usage by project as of a moment) for the events written
                      before this build indexed them, in one read of the log from where the
                      last run stopped; run once after every server runs this build. With the
                      log in PostgreSQL there is nothing to do (it builds its indexes at start)`;

/** index-lookups: KurrentDB's one-off backfill (kurrent/lookup-backfill.ts); PostgreSQL's indexes are built at start-up. */
export async function indexLookups(url: string, openLog: (pool: Pool) => Promise<AdminLog>, io: AdminIo): Promise<void> {
  const pool = new Pool({ connectionString: url, max: 1 });
  try {
    const log = await openLog(pool);
    try {
      if (log.kind !== 'kurrentdb') {
        io.out('index-lookups: nothing to do: PostgreSQL indexes the lookups itself, at start-up');
        return;
      }
      // The KurrentDB log's own bookkeeping, which the port does not have: the kind says which adapter this is.
      const result = await (log.store as KurrentEventStore).backfillLookupIndex();
      io.out(`index-lookups: ${result.entries} index entries written for the events after ${formatPosition(result.from)} up to ${formatPosition(result.upTo)}`);
    } finally {
      await log.close();
    }
  } finally {
    await pool.end();
  }
}

const formatPosition = (position: { commit: bigint; prepare: bigint }) =>
  position.commit === 0n && position.prepare === 0n ? 'the start' : `${position.commit}/${position.prepare}`;
