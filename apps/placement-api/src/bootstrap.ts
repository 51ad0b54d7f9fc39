import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Database, openDatabase } from '../../../libs/placement/src/index.js';
import { AppModule } from './app.module.js';
import { AppConfig } from './config.js';
import { placementClientError } from './platform/client-error.js';
import { installHttpPipeline } from './platform/http-pipeline.js';
import { RouteTable } from './platform/route-table.js';
import { ALL_PROJECTIONS } from '../../../projections/index.js';
import { instrumentAppends } from '../../../libs/event-store/src/instrumented-event-store.js';
import { closeGracefully } from './operations/graceful-shutdown.js';
import { createLogger, Logger, NestPinoLogger } from './operations/logger.js';
import { Operations } from './operations/operations.js';
import { installRequestObserver } from './operations/request-observer.js';
import { startAsyncProjections } from './async-projections.js';

export interface RunningApp {
  readonly app: NestFastifyApplication;
  readonly database: Database;
  readonly operations: Operations;
  /** Graceful: in-flight requests finish first, bounded by PLACEMENT_SHUTDOWN_GRACE_SECONDS. */
  close(): Promise<void>;
}

/**
 * Builds the API over a database URL; used by main.ts and by the e2e tests alike.
 * `logger` receives the JSON logs (requests and the app's own); false silences them.
 */
export async function createApp(config: AppConfig, databaseUrl: string, logger: Logger | false = createLogger(config.logLevel)): Promise<RunningApp> {
  const operations = new Operations(logger || createLogger('silent'), ALL_PROJECTIONS.map((projection) => projection.name));
  const opened = await openDatabase(databaseUrl, config.dbPoolSize, config.projections.mode);
  const projections = config.projections.mode === 'async'
    ? await startAsyncProjections(config.projections, databaseUrl, opened, operations)
    : undefined;
  const instrumented = instrumentAppends(opened.eventStore, operations.metrics);
  const database: Database = { ...opened, eventStore: projections ? projections.awaiting(instrumented) : instrumented };
  const routes = new RouteTable();
  const adapter = new FastifyAdapter({ routerOptions: { maxParamLength: 500 }, clientErrorHandler: placementClientError });
  adapter.getInstance().addHook('onRoute', (route) => routes.add(route.url, route.method));
  installHttpPipeline(adapter.getInstance(), config);
  installRequestObserver(adapter.getInstance(), operations);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.create(config, database, routes, operations), adapter, {
    bodyParser: false,
    logger: logger ? new NestPinoLogger(logger) : false,
  });
  await app.init();
  return {
    app,
    database,
    operations,
    close: async () => {
      await closeGracefully(adapter.getInstance(), operations, config.shutdownGraceSeconds * 1000, async () => {
        await app.close();
        await projections?.close();
        await database.close();
      });
    },
  };
}
