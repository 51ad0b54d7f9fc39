import type { Pool } from 'pg';
import { AppendsBusy, LogPosition } from '../port.js';
import { inTransaction } from './in-transaction.js';
import { readHead } from './log-reads.js';

/** Long enough for the appends in flight to finish; short enough that those arriving never queue long behind it. */
const HOLD_TIMEOUT = '2s';
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Every append locks its es_streams rows before it writes an event (es_append), so holding the
 * table in EXCLUSIVE mode waits for the appends in flight to commit and keeps new ones from
 * writing anything: the head read then is the last event until the hold ends, and the read
 * models the inline projections wrote show exactly the log up to it.
 */
export function holdAppends<T>(pool: Pool, work: (head: LogPosition) => Promise<T>): Promise<T> {
  return inTransaction(pool, async (client) => {
    await client.query(`SET LOCAL lock_timeout = '${HOLD_TIMEOUT}'`);
    try {
      await client.query('LOCK TABLE es_streams IN EXCLUSIVE MODE');
    } catch (error) {
      throw (error as { code?: string }).code === LOCK_NOT_AVAILABLE ? new AppendsBusy() : error;
    }
    return work(await readHead(client));
  });
}
