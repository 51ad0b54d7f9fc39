import { Inject, Injectable, Logger } from '@nestjs/common';
import { READ_DB, ReadDb } from '#placement/shared/read-db.js';
import { MIGRATIONS } from '#projections/index.js';
import { Operations } from './operations.js';

/** A probe must answer before the load balancer's own timeout, whatever the database does. */
const DATABASE_TIMEOUT_MS = 2000;

/**
 * Why the service is not ready, in one word: a probe needs no token, so it says no more than
 * that. The details (the database's error, which migration, which projection) go to the log.
 */
type NotReadyReason = 'draining' | 'database' | 'migrations' | 'projections';

export type Readiness = { readonly ready: true } | { readonly ready: false; readonly reason: NotReadyReason; readonly detail: string };

/** Ready: not shutting down, the database answers, and the read models are what this build reads and are current. */
@Injectable()
export class ReadinessProbe {
  private readonly logger = new Logger('readiness');
  // The name TypeORM records in rm_migrations: the instance's `name`, else the class name.
  private readonly expectedMigrations = MIGRATIONS.map((Migration) => new Migration().name ?? Migration.name);
  /** The last detail logged: a probe every few seconds logs a change, not every answer. */
  private lastLogged: string | null = null;

  constructor(@Inject(READ_DB) private readonly db: ReadDb, private readonly operations: Operations) {}

  async check(): Promise<Readiness> {
    const found = await this.examine();
    const detail = found.ready ? null : found.detail;
    if (detail !== this.lastLogged) {
      if (detail) this.logger.warn(`not ready: ${detail}`);
      else if (this.lastLogged) this.logger.log('ready again');
      this.lastLogged = detail;
    }
    return found;
  }

  private async examine(): Promise<Readiness> {
    if (this.operations.draining) return notReady('draining', 'shutting down');
    let applied: Set<string>;
    try {
      const { rows } = await withTimeout(this.db.query<{ name: string }>('SELECT name FROM rm_migrations'), DATABASE_TIMEOUT_MS);
      applied = new Set(rows.map((row) => row.name));
    } catch (error) {
      return notReady('database', `database unreachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    const missing = this.expectedMigrations.filter((name) => !applied.has(name));
    if (missing.length > 0) return notReady('migrations', `read models are behind: migrations not applied: ${missing.join(', ')}`);
    const lagging = this.operations.metrics.laggingProjection();
    if (lagging) return notReady('projections', `read models are behind: projection ${lagging.projection} is ${lagging.events} events behind the log`);
    return { ready: true };
  }
}

function notReady(reason: NotReadyReason, detail: string): Readiness {
  return { ready: false, reason, detail };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
