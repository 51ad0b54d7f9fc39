import { createApp, RunningApp } from '#placement-api/bootstrap.js';
import { loadConfig } from '#platform/config.js';
import { KurrentEventStore } from '#event-store/kurrent/kurrent-event-store.js';
import type { KurrentClient } from '#event-store/kurrent/kurrent-client.js';
import { createTestDatabase } from '../database.js';

export interface KurrentApp {
  readonly running: RunningApp;
  readonly base: string;
  close(): Promise<void>;
}

/** The app with its log in KurrentDB through the adapter over `client`, and its read models on a fresh database. */
export async function startKurrentApp(client: KurrentClient): Promise<KurrentApp> {
  const database = await createTestDatabase('pl_e2e');
  const config = loadConfig({
    PLACEMENT_AUTH_STRATEGY: 'noauth2', PLACEMENT_EVENT_STORE: 'kurrentdb', PLACEMENT_KURRENTDB_URL: 'kurrentdb://127.0.0.1:2113?tls=false',
  });
  const running = await createApp(config, database.url, false, new KurrentEventStore(client));
  await running.app.listen(0, '127.0.0.1');
  return {
    running,
    base: `http://127.0.0.1:${(running.app.getHttpServer().address() as { port: number }).port}`,
    async close() {
      await running.close();
      await database.drop();
    },
  };
}
