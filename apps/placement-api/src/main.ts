import 'reflect-metadata';
import { createApp } from './bootstrap.js';
import { ConfigError, loadConfig } from './config.js';
import { EmbeddedDatabase, startEmbeddedPostgres } from './embedded-postgres.js';
import { createLogger } from './operations/logger.js';

// JSON lines like every other log of the service; LOG_LEVEL applies once the configuration is read.
const logger = createLogger('info');
const log = (message: string) => logger.info(message);

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      logger.fatal(`configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  logger.level = config.logLevel;
  let embedded: EmbeddedDatabase | undefined;
  const databaseUrl = config.databaseUrl ?? (embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedPort, log)).url;
  const running = await createApp(config, databaseUrl, logger);
  await running.app.listen(config.port, config.host);
  log(`listening on http://${config.host}:${config.port} (${embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'})`);

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

main().catch((error) => {
  logger.fatal({ err: error }, 'failed to start');
  process.exit(1);
});
