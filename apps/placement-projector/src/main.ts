import 'reflect-metadata';
import { openDatabase } from '#placement/index.js';
import { AsyncProjector, LogReader, storeReader } from '#projections/runner/async/index.js';
import { ALL_PROJECTIONS } from '#projections/index.js';
import { createLogger } from '#platform/logger.js';
import { projectorSettings } from './settings.js';

const logger = createLogger('info');

/**
 * The projector on its own (npm run projector): for APIs run with PLACEMENT_PROJECTIONS=async
 * and PLACEMENT_PROJECTOR=off. Run two or more for a standby; one leads at a time.
 */
async function main(): Promise<void> {
  const settings = projectorSettings(process.env);
  if (typeof settings === 'string') {
    logger.fatal(`configuration error: ${settings}`);
    process.exit(2);
  }
  logger.level = settings.logLevel;
  // Opening runs the read models' migrations (under their lock) like a starting API, and adds no inline projector.
  const database = await openDatabase(settings.databaseUrl, 2, 'async', { recycleSeconds: settings.connectionRecycleSeconds });
  const log = settings.kurrentDbUrl ? await kurrentLog(settings.kurrentDbUrl) : undefined;
  const projector = new AsyncProjector({
    url: settings.databaseUrl,
    read: log?.read ?? storeReader(database.eventStore),
    projections: ALL_PROJECTIONS,
    batchSize: settings.batchSize,
    standbyPollMs: settings.standbyPollMs,
    onRole: (role) => logger.info({ role, pid: process.pid }, `projector: ${role}`),
    onBatch: (events, position) => logger.debug({ events, position: `${position.commit}:${position.prepare}` }, 'projector: batch committed'),
    onError: (error) => logger.warn({ err: error }, 'projector: a batch or the connection failed; reconnecting, then leading again or standing by'),
  });
  projector.start();
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: finishing the batch in hand and stopping`);
    await projector.stop();
    await log?.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/**
 * The log in KurrentDB: read from $all (no gaps to wait for there), positions and checkpoints
 * in KurrentDB's terms. Loaded only here, since the client takes half a second to load.
 */
async function kurrentLog(url: string): Promise<{ read: LogReader; close(): Promise<void> }> {
  const { KurrentEventStore } = await import('#event-store/kurrent/index.js');
  const store = KurrentEventStore.connect(url);
  await store.assertCapabilities();
  return { read: storeReader(store), close: () => store.close() };
}

main().catch((error) => {
  logger.fatal({ err: error }, 'failed to start');
  process.exit(1);
});
