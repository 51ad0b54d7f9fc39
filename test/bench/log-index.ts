import { Pool } from 'pg';
import { comparePositions, PostgresEventStore, START } from '#event-store/index.js';
import { applyEvent } from '#placement/candidates/index/apply-event.js';
import { NameCatalog } from '#placement/candidates/index/name-catalog.js';
import { ProviderIndex } from '#placement/candidates/index/provider-index.js';

/**
 * The candidate index of a bench database, rebuilt from its log as the server builds it: through
 * the event store port, up to the log's head.
 */
export async function indexFromLog(databaseUrl: string): Promise<{ index: ProviderIndex; names: NameCatalog; events: number; ms: number }> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const index = new ProviderIndex();
    const names = new NameCatalog();
    const start = Date.now();
    const store = new PostgresEventStore(pool);
    const head = await store.head();
    let position = START;
    let events = 0;
    while (comparePositions(position, head) < 0) {
      const batch = await store.readAll(position, 5000, { until: { position: head } });
      for (const event of batch) applyEvent(index, names, event);
      events += batch.length;
      if (batch.length > 0) position = batch[batch.length - 1].position;
    }
    return { index, names, events, ms: Date.now() - start };
  } finally {
    await pool.end();
  }
}
