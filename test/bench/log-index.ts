import { Pool } from 'pg';
import { START } from '../../libs/event-store/src/index.js';
import { applyEvent } from '../../libs/placement/src/candidates/index/apply-event.js';
import { NameCatalog } from '../../libs/placement/src/candidates/index/name-catalog.js';
import { ProviderIndex } from '../../libs/placement/src/candidates/index/provider-index.js';
import { readHorizon, readTail } from '../../libs/placement/src/candidates/log-horizon.js';

/**
 * The candidate index of a bench database, rebuilt from its log as the server builds it, up to
 * the writers of this database (a long transaction elsewhere in the cluster must not hide events).
 */
export async function indexFromLog(databaseUrl: string): Promise<{ index: ProviderIndex; names: NameCatalog; events: number; ms: number }> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const index = new ProviderIndex();
    const names = new NameCatalog();
    const start = Date.now();
    const { finishedHere } = await readHorizon(pool);
    let position = START;
    let events = 0;
    for (;;) {
      const batch = await readTail(pool, position, finishedHere, 5000);
      for (const event of batch) applyEvent(index, names, event);
      events += batch.length;
      if (batch.length === 0) break;
      position = batch[batch.length - 1].position;
    }
    return { index, names, events, ms: Date.now() - start };
  } finally {
    await pool.end();
  }
}
