#!/usr/bin/env node
import 'reflect-metadata';
import { AppConfig, ConfigError, loadConfig } from '#platform/config.js';
import { applyBeneath, ConfigFileError, loadConfigFiles } from '#config-file/index.js';
import { SERVER_USAGE, serverArgs } from './server-args.js';
import { candidateSearchOptions } from './allocation-candidates/candidate-settings.js';
import { EmbeddedDatabase, startEmbeddedPostgres } from './embedded-postgres.js';
import { createLogger } from '#platform/logger.js';
import cluster from 'node:cluster';
import { runWorkers } from './workers.js';
import { NOAUTH2_WARNING } from '#platform/auth/secure-default.js';

// JSON lines like every other log of the service; LOG_LEVEL applies once the configuration is read.
const logger = createLogger('info');
const log = (message: string) => logger.info(message);

/**
 * placement.conf's settings go beneath the environment (which wins), --host/--port above it; then
 * the one settings reader validates them all. process.env itself is completed because the
 * candidate search reads its options from it.
 */
function readConfiguration(): AppConfig {
  const loaded = loadConfigFiles(process.argv.slice(2), process.env);
  const args = serverArgs(loaded.rest);
  if (args.help) {
    process.stdout.write(`${SERVER_USAGE}\n`);
    process.exit(0);
  }
  // Workers re-read the same files: one set of lines from the primary is enough.
  if (cluster.isPrimary) {
    if (loaded.files.length > 0) log(`configuration files: ${loaded.files.join(', ')}`);
    for (const line of loaded.notices) log(line);
    for (const line of loaded.warnings) logger.warn(line);
  }
  applyBeneath(process.env, loaded);
  Object.assign(process.env, args.env);
  const config = loadConfig();
  // The candidate search reads its own options when its module starts: a bad one is a configuration error too.
  candidateSearchOptions();
  return config;
}

async function main(): Promise<void> {
  let config;
  try {
    config = readConfiguration();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ConfigFileError) {
      logger.fatal(`configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  logger.level = config.logLevel;
  // The primary speaks for its workers: one warning per start, not one per process.
  if (config.authStrategy === 'noauth2' && cluster.isPrimary) logger.warn(NOAUTH2_WARNING);
  if (config.eventStore.kind === 'kurrentdb') await checkKurrentDb(config.eventStore.url);
  let embedded: EmbeddedDatabase | undefined;
  const databaseUrl = config.databaseUrl ?? (embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedPort, log)).url;
  if (config.workers > 1 && cluster.isPrimary) {
    // Workers find the embedded PostgreSQL this process started through DATABASE_URL.
    runWorkers(config.workers, { DATABASE_URL: databaseUrl }, logger, async () => embedded?.stop());
    log(`running ${config.workers} API workers on http://${config.host}:${config.port}`);
    return;
  }
  // Loaded only by a process that serves: with PLACEMENT_WORKERS the primary never needs the
  // app's modules (seconds of loading on a busy machine), so its workers are forked that much sooner.
  const { createApp } = await import('./bootstrap.js');
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
  const { checkKurrentDbAtStartup } = await import('#event-store/kurrent/startup-check.js');
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
