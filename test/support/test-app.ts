import type { EventStore } from '#event-store/index.js';
import { createApp, RunningApp } from '#placement-api/bootstrap.js';
import { loadConfig } from '#platform/config.js';
import { createTestDatabase, TestDatabase } from './database.js';

/**
 * Where the app keeps its log: PostgreSQL (the default), or KurrentDB through its adapter over
 * the client's in-memory model (no server can run here), with asynchronous projections.
 */
export type LogStore = 'postgresql' | 'kurrentdb';
export const LOG_STORES: readonly LogStore[] = ['postgresql', 'kurrentdb'];

/**
 * The settings that put the log in that store, as a server or the admin commands read them (the
 * KurrentDB address is never dialled: the specs hand over an in-memory log).
 */
export function logStoreEnv(log: LogStore): Record<string, string> {
  return log === 'kurrentdb' ? { PLACEMENT_EVENT_STORE: 'kurrentdb', PLACEMENT_KURRENTDB_URL: 'kurrentdb://127.0.0.1:2113?tls=false' } : {};
}

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  readonly body: any;
}

export interface RequestOptions {
  readonly version?: string;
  readonly token?: string | null;
  readonly headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as is. */
  readonly body?: unknown;
}

export interface TestApp {
  readonly baseUrl: string;
  /** The test's own database, for tools that connect themselves (the admin CLI). */
  readonly databaseUrl: string;
  readonly running: RunningApp;
  /** The log the app was given when it is kept outside PostgreSQL (the in-memory KurrentDB), for tools that read it themselves. */
  readonly externalLog?: EventStore;
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  close(): Promise<void>;
}

/**
 * The real server (Fastify + PostgreSQL) on a fresh database, listening on a free port:
 * e2e tests speak HTTP to it exactly as clients do. Share one per test file.
 */
export async function startTestApp(env: Record<string, string> = {}, log: LogStore = 'postgresql'): Promise<TestApp> {
  const db: TestDatabase = await createTestDatabase('pl_e2e');
  const config = loadConfig({ PLACEMENT_AUTH_STRATEGY: 'noauth2', PORT: '0', ...logStoreEnv(log), ...env });
  const externalLog = log === 'kurrentdb' ? await inMemoryKurrentLog() : undefined;
  const running = await createApp(config, db.url, false, externalLog);
  await running.app.listen(0, '127.0.0.1');
  const address = running.app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return {
    baseUrl,
    databaseUrl: db.url,
    running,
    externalLog,
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
      if (options.token !== null) headers['x-auth-token'] = options.token ?? 'admin';
      if (options.version) headers['openstack-api-version'] = `placement ${options.version}`;
      let body: string | undefined;
      if (options.body !== undefined) {
        body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown;
      try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = undefined; }
      return { status: response.status, headers: response.headers, text, body: parsed };
    },
    async close() {
      await running.close();
      await db.drop();
    },
  };
}

/**
 * Another API process on `first`'s database, on a port of its own, as a second instance behind a
 * load balancer: what one process wrote, the other must see, and guesses of one about the
 * other's streams must be checked.
 */
export async function startSiblingApp(first: TestApp): Promise<{ running: RunningApp; url: string }> {
  const running = await createApp(loadConfig({ PLACEMENT_AUTH_STRATEGY: 'noauth2' }), first.databaseUrl, false);
  await running.app.listen(0, '127.0.0.1');
  return { running, url: `http://127.0.0.1:${(running.app.getHttpServer().address() as { port: number }).port}` };
}

/** Loaded only when asked for: the KurrentDB client takes half a second to load. */
async function inMemoryKurrentLog() {
  const { KurrentEventStore } = await import('#event-store/kurrent/kurrent-event-store.js');
  const { InMemoryKurrentClient } = await import('#event-store/kurrent/testing/in-memory-kurrent-client.js');
  return new KurrentEventStore(new InMemoryKurrentClient());
}
