import 'reflect-metadata';
import { createApp } from './bootstrap.js';
import { ConfigError, loadConfig } from './config.js';
import { candidateSearchOptions } from './allocation-candidates/candidate-settings.js';
import { EmbeddedDatabase, startEmbeddedPostgres } from './embedded-postgres.js';
import { createLogger } from './operations/logger.js';
import cluster from 'node:cluster';
import { runWorkers } from './workers.js';

// JSON lines like every other log of the service; LOG_LEVEL applies once the configuration is read.
const logger = createLogger('info');
const log = (message: string) => logger.info(message);

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
    // The candidate search reads its settings when its module starts; a bad one stops us here first.
    candidateSearchOptions();
  } catch (error) {
    if (error instanceof ConfigError) {
      logger.fatal(`configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  logger.level = config.logLevel;
  if (config.eventStore.kind === 'kurrentdb') await checkKurrentDb(config.eventStore.url);
  let embedded: EmbeddedDatabase | undefined;
  const databaseUrl = config.databaseUrl ?? (embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedPort, log)).url;
  if (config.workers > 1 && cluster.isPrimary) {
    // Workers find the embedded PostgreSQL this process started through DATABASE_URL.
    runWorkers(config.workers, { DATABASE_URL: databaseUrl }, logger, async () => embedded?.stop());
    log(`running ${config.workers} API workers on http://${config.host}:${config.port}`);
    return;
  }
  const running = await createApp(config, databaseUrl, logger);
  await running.app.listen(config.port, config.host);
  const where = embedded ? 'embedded PostgreSQL' : 'DATABASE_URL';
  const logIn = config.eventStore.kind === 'kurrentdb' ? '; the event log in KurrentDB' : '';
  log(`listening on http://${config.host}:${config.port} (${where}${logIn})`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: finishing in-flight requests and stopping`);
    await running.close();
    await embedded?.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/**
 * A server older than KurrentDB 25.1 would lose the atomicity of claims (no multi-stream
 * append): stop with the check's message rather than serve with it.
 */
async function checkKurrentDb(url: string): Promise<void> {
  // Loaded only here: the KurrentDB client and its native module take half a second to load.
  const { checkKurrentDbAtStartup } = await import('../../../libs/event-store/src/kurrent/startup-check.js');
  try {
    await checkKurrentDbAtStartup(url);
  } catch (error) {
    logger.fatal(`PLACEMENT_EVENT_STORE=kurrentdb: ${(error as Error).message}`);
    process.exit(2);
  }
}

main().catch((error) => {
  logger.fatal({ err: error }, 'failed to start');
  process.exit(1);
});
