import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Database, jsonForm, openDatabase } from '#placement/index.js';
import { AppModule } from './app.module.js';
import { AppConfig } from '#platform/config.js';
import { placementClientError } from './platform/client-error.js';
import { installHttpPipeline } from './platform/http-pipeline.js';
import { applyServerLimits, fastifyLimitOptions } from './platform/connection-limits.js';
import { refuseConnect } from './platform/connect-method.js';
import { placementFrameworkError } from './platform/framework-errors.js';
import { RouteTable } from './platform/route-table.js';
import { ALL_PROJECTIONS } from '#projections/index.js';
import { instrumentAppends } from '#event-store/instrumented-event-store.js';
import { closeGracefully } from './operations/graceful-shutdown.js';
import { createLogger, Logger, NestPinoLogger } from '#platform/logger.js';
import { Operations } from './operations/operations.js';
import { installRequestObserver } from './operations/request-observer.js';
import { startAsyncProjections } from './async-projections.js';
import type { EventStore } from '#event-store/index.js';
import { backfillProviderNames } from '#placement/providers/provider-name-backfill.js';
import { compactHeapOnce } from './operations/compact-heap.js';
import { fixHeapForServing } from './operations/serving-heap.js';
import { CountedClient } from './operations/counted-client.js';

export interface RunningApp {
  readonly app: NestFastifyApplication;
  readonly database: Database;
  readonly operations: Operations;
  /** Graceful: in-flight requests finish first, bounded by PLACEMENT_SHUTDOWN_GRACE_SECONDS. */
  close(): Promise<void>;
}

/** The log kept outside PostgreSQL (KurrentDB's adapter); the app closes it when it stops. */
export type ExternalLog = EventStore & { close(): Promise<void> };

/**
 * Builds the API over a database URL; used by main.ts and by the e2e tests alike.
 * `logger` receives the JSON logs (requests and the app's own); false silences them.
 * With PLACEMENT_EVENT_STORE=kurrentdb the log is `externalLog` when given (specs pass the
 * adapter over an in-memory client), else a connection to PLACEMENT_KURRENTDB_URL; the read
 * models stay in the database either way, fed by the asynchronous projector from the log's $all.
 */
export async function createApp(
  config: AppConfig, databaseUrl: string, logger: Logger | false = createLogger(config.logLevel), externalLog?: ExternalLog,
): Promise<RunningApp> {
  const operations = new Operations(logger || createLogger('silent'), ALL_PROJECTIONS.map((projection) => projection.name));
  const log = externalLog ?? (config.eventStore.kind === 'kurrentdb' ? await connectKurrentLog(config.eventStore.url) : undefined);
  if (log && config.projections.mode !== 'async') {
    await log.close();
    throw new Error('a log outside PostgreSQL needs PLACEMENT_PROJECTIONS=async: inline projections run in the append\'s PostgreSQL transaction');
  }
  const opened = await openDatabase(databaseUrl, config.dbPoolSize, config.projections.mode, {
    client: CountedClient, recycleSeconds: config.dbConnectionRecycleSeconds,
  });
  const projections = config.projections.mode === 'async'
    ? await startAsyncProjections(config.projections, databaseUrl, opened, operations, log ?? opened.eventStore)
    : undefined;
  // Before serving: a log from before the name streams gets them once, or a name could be taken twice.
  const backfilled = await backfillProviderNames(log ?? opened.eventStore, opened.pool).catch(async (error: unknown) => {
    await projections?.close();
    await opened.close();
    await log?.close();
    throw error;
  });
  if (backfilled) operations.logger.info({ event: 'provider_names_backfilled', ...backfilled }, 'provider names reserved for the log\'s existing providers');
  const instrumented = instrumentAppends(log ?? opened.eventStore, operations.metrics);
  const database: Database = {
    ...opened, eventStore: projections ? projections.awaiting(instrumented) : instrumented,
    storedForm: log ? jsonForm : opened.storedForm,
  };
  const routes = new RouteTable();
  const adapter = new FastifyAdapter({
    ...fastifyLimitOptions,
    routerOptions: { maxParamLength: 500 },
    clientErrorHandler: placementClientError,
    frameworkErrors: placementFrameworkError,
  });
  applyServerLimits(adapter.getInstance().server);
  refuseConnect(adapter.getInstance().server);
  adapter.getInstance().addHook('onRoute', (route) => routes.add(route.url, route.method));
  installHttpPipeline(adapter.getInstance(), config);
  installRequestObserver(adapter.getInstance(), operations);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.create(config, database, routes, operations), adapter, {
    bodyParser: false,
    logger: logger ? new NestPinoLogger(logger) : false,
  });
  await app.init();
  // What loading the candidate index parsed and dropped would otherwise stay committed to the heap for good.
  compactHeapOnce();
  fixHeapForServing();
  return {
    app,
    database,
    operations,
    close: async () => {
      await closeGracefully(adapter.getInstance(), operations, config.shutdownGraceSeconds * 1000, async () => {
        await app.close();
        await projections?.close();
        await database.close();
        await log?.close();
      });
    },
  };
}

async function connectKurrentLog(url: string): Promise<ExternalLog> {
  // Loaded only here: the KurrentDB client and its native module take half a second to load.
  const { KurrentEventStore } = await import('#event-store/kurrent/kurrent-event-store.js');
  return KurrentEventStore.connect(url);
}
