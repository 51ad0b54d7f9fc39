import 'reflect-metadata';
import { openDatabase } from '../../../libs/placement/src/index.js';
import { AsyncProjector, databaseLocalReader } from '../../../libs/placement/src/projector/index.js';
import { ALL_PROJECTIONS } from '../../../projections/index.js';
import { createLogger } from '../../placement-api/src/operations/logger.js';
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
  const database = await openDatabase(settings.databaseUrl, 2, 'async');
  const projector = new AsyncProjector({
    url: settings.databaseUrl,
    read: databaseLocalReader(database.pool),
    projections: ALL_PROJECTIONS,
    batchSize: settings.batchSize,
    standbyPollMs: settings.standbyPollMs,
    onRole: (role) => logger.info({ role, pid: process.pid }, `projector: ${role}`),
    onBatch: (events, position) => logger.debug({ events, position: `${position.commit}:${position.prepare}` }, 'projector: batch committed'),
    onError: (error) => logger.warn({ err: error }, 'projector: connection lost; standing by again'),
  });
  projector.start();
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: finishing the batch in hand and stopping`);
    await projector.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  logger.fatal({ err: error }, 'failed to start');
  process.exit(1);
});
