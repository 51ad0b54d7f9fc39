import 'reflect-metadata';
import { createApp } from './bootstrap.js';
import { ConfigError, loadConfig } from './config.js';
import { EmbeddedDatabase, startEmbeddedPostgres } from './embedded-postgres.js';

const log = (message: string) => process.stderr.write(`${new Date().toISOString()} placement-ledger: ${message}\n`);

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      log(`configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  let embedded: EmbeddedDatabase | undefined;
  const databaseUrl = config.databaseUrl ?? (embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedPort, log)).url;
  const running = await createApp(config, databaseUrl);
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
  log(`failed to start: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
