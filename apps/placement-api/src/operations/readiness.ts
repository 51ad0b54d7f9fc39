import { Inject, Injectable } from '@nestjs/common';
import { READ_DB, ReadDb } from '#placement/shared/read-db.js';
import { MIGRATIONS } from '#projections/index.js';
import { Operations } from './operations.js';

/** A probe must answer before the load balancer's own timeout, whatever the database does. */
const DATABASE_TIMEOUT_MS = 2000;

export type Readiness =
  | { readonly ready: true; readonly checks: Record<string, string> }
  | { readonly ready: false; readonly reason: string; readonly checks: Record<string, string> };

/** Ready: not shutting down, the database answers, and the read models are what this build reads and are current. */
@Injectable()
export class ReadinessProbe {
  // The name TypeORM records in rm_migrations: the instance's `name`, else the class name.
  private readonly expectedMigrations = MIGRATIONS.map((Migration) => new Migration().name ?? Migration.name);

  constructor(@Inject(READ_DB) private readonly db: ReadDb, private readonly operations: Operations) {}

  async check(): Promise<Readiness> {
    if (this.operations.draining) return notReady('shutting down', { server: 'draining' });
    let applied: Set<string>;
    try {
      const { rows } = await withTimeout(this.db.query<{ name: string }>('SELECT name FROM rm_migrations'), DATABASE_TIMEOUT_MS);
      applied = new Set(rows.map((row) => row.name));
    } catch (error) {
      const why = `database unreachable: ${error instanceof Error ? error.message : String(error)}`;
      return notReady(why, { database: why });
    }
    const missing = this.expectedMigrations.filter((name) => !applied.has(name));
    if (missing.length > 0) {
      return notReady(`read models are behind: migrations not applied: ${missing.join(', ')}`, { database: 'ok', read_models: 'migrations pending' });
    }
    const lagging = this.operations.metrics.laggingProjection();
    if (lagging) {
      const why = `read models are behind: projection ${lagging.projection} is ${lagging.events} events behind the log`;
      return notReady(why, { database: 'ok', read_models: 'behind' });
    }
    return { ready: true, checks: { database: 'ok', read_models: 'current' } };
  }
}

function notReady(reason: string, checks: Record<string, string>): Readiness {
  return { ready: false, reason, checks };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
