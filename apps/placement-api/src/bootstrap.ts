import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Database, openDatabase } from '../../../libs/placement/src/index.js';
import { AppModule } from './app.module.js';
import { AppConfig } from './config.js';
import { placementClientError } from './platform/client-error.js';
import { installHttpPipeline } from './platform/http-pipeline.js';
import { RouteTable } from './platform/route-table.js';

export interface RunningApp {
  readonly app: NestFastifyApplication;
  readonly database: Database;
  close(): Promise<void>;
}

/** Builds the API over a database URL; used by main.ts and by the e2e tests alike. */
export async function createApp(config: AppConfig, databaseUrl: string, logger: false | ('error' | 'warn' | 'log')[] = ['error', 'warn']): Promise<RunningApp> {
  const database = await openDatabase(databaseUrl, config.dbPoolSize);
  const routes = new RouteTable();
  const adapter = new FastifyAdapter({ routerOptions: { maxParamLength: 500 }, clientErrorHandler: placementClientError });
  adapter.getInstance().addHook('onRoute', (route) => routes.add(route.url, route.method));
  installHttpPipeline(adapter.getInstance(), config);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.create(config, database, routes), adapter, {
    bodyParser: false,
    logger,
  });
  await app.init();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}
