import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { EXIT, runAdmin } from '#placement-admin/cli.js';
import type { AdminEvent } from '#admin/rebuild/admin-events.js';
import { createTestDatabase } from '../support/database.js';
import { startTestApp, TestApp } from '../support/test-app.js';

jest.setTimeout(60_000);

/** The built command (`npm run build`), as `npm run admin` runs it; TEST_ADMIN_ENTRY points at another build. */
const ADMIN_ENTRY = process.env.TEST_ADMIN_ENTRY
  ? resolve(process.env.TEST_ADMIN_ENTRY)
  : resolve(__dirname, '../../dist/apps/placement-admin/src/main.js');

function adminProcess(args: string[], databaseUrl: string): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [ADMIN_ENTRY, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  return new Promise((done) => child.on('exit', (code) => done({ code, stdout })));
}

/** The CLI as `npm run admin -- <args>` runs it, in this process: its exit code and its lines. */
async function admin(app: TestApp, args: string[], observe?: (event: AdminEvent) => Promise<void>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(args, { DATABASE_URL: app.databaseUrl }, { out: (l) => out.push(l), err: (l) => err.push(l) }, observe);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('placement-admin: verify, rebuild and status against a running API', () => {
  let app: TestApp;
  let db: Client;
  const compute = randomUUID(), nic = randomUUID(), other = randomUUID();
  const vm = randomUUID(), moved = randomUUID(), gone = randomUUID();
  const ok = async (method: string, path: string, body?: unknown, version = '1.39') => {
    const reply = await app.request(method, path, { body, version });
    if (![200, 201, 204].includes(reply.status)) throw new Error(`${method} ${path}: ${reply.status} ${reply.text}`);
    return reply;
  };
  const claim = (consumer: string, provider: string, resources: Record<string, number>, generation: number | null) =>
    ok('PUT', `/allocations/${consumer}`, {
      allocations: { [provider]: { resources } }, project_id: 'p1', user_id: 'u1', consumer_generation: generation, consumer_type: 'INSTANCE',
    });

  beforeAll(async () => {
    app = await startTestApp();
    db = new Client({ connectionString: app.databaseUrl });
    await db.connect();
    await ok('PUT', '/resource_classes/CUSTOM_FPGA');
    await ok('PUT', '/traits/CUSTOM_RACK_7');
    await ok('POST', '/resource_providers', { name: 'compute-1', uuid: compute });
    await ok('POST', '/resource_providers', { name: 'compute-1-fpga', uuid: nic, parent_provider_uuid: compute });
    await ok('POST', '/resource_providers', { name: 'compute-2', uuid: other });
    for (const uuid of [compute, other]) {
      await ok('PUT', `/resource_providers/${uuid}/inventories`, {
        resource_provider_generation: 0, inventories: { VCPU: { total: 64, allocation_ratio: 4 }, MEMORY_MB: { total: 65536 } },
      });
    }
    await ok('PUT', `/resource_providers/${nic}/inventories`, { resource_provider_generation: 0, inventories: { CUSTOM_FPGA: { total: 2 } } });
    await ok('PUT', `/resource_providers/${compute}/traits`, { resource_provider_generation: 1, traits: ['CUSTOM_RACK_7', 'HW_CPU_X86_AVX2'] });
    await ok('PUT', `/resource_providers/${compute}/aggregates`, { resource_provider_generation: 2, aggregates: [randomUUID()] });
    await claim(vm, compute, { VCPU: 4, MEMORY_MB: 4096 }, null);
    await claim(moved, compute, { VCPU: 2 }, null);
    await claim(moved, other, { VCPU: 2, MEMORY_MB: 1024 }, 1);
    await claim(gone, other, { VCPU: 1 }, null);
    await ok('DELETE', `/allocations/${gone}`);
  });
  afterAll(async () => {
    await db.end();
    await app.close();
  });

  it('finds the read models matching the log the API wrote', async () => {
    const result = await admin(app, ['verify']);
    expect(result.err).toBe('');
    expect(result.out).toMatch(/verify: the read models match the log \(\d+ events, \d+ tables/);
    expect(result.out).toMatch(/rm_allocations: ok \(4 rows expected, 4 found\)/);
    expect(result.code).toBe(EXIT.ok);
  });

  it('reports a deleted row and a changed number, and exits non-zero', async () => {
    await db.query(`DELETE FROM read_models.rm_allocations WHERE consumer_uuid = $1 AND resource_class = 'MEMORY_MB'`, [vm]);
    await db.query(`UPDATE read_models.rm_inventories SET total = 999 WHERE provider_uuid = $1 AND resource_class = 'VCPU'`, [other]);
    // The API serves the corruption: that is what the read models are for, and why verify exists.
    expect((await app.request('GET', `/resource_providers/${other}/inventories`)).body.inventories.VCPU.total).toBe(999);

    const result = await admin(app, ['verify']);
    expect(result.code).toBe(EXIT.drift);
    expect(result.out).toContain('rm_allocations: DRIFT: 1 missing, 0 extra, 0 different (4 rows expected, 3 found)');
    expect(result.out).toContain(`missing consumer_uuid="${vm}" provider_uuid="${compute}" resource_class="MEMORY_MB" used=4096`);
    expect(result.out).toContain('rm_inventories: DRIFT: 0 missing, 0 extra, 1 different');
    expect(result.out).toContain(`different provider_uuid="${other}" resource_class="VCPU": total expected 64, found 999`);
    expect(result.out).toMatch(/verify: DRIFT in 2 of \d+ tables/);

    const built = await adminProcess(['verify'], app.databaseUrl);
    expect(built.stdout).toContain('rm_allocations: DRIFT: 1 missing');
    expect(built.code).toBe(1);
  });

  it('rebuilds while the API keeps answering reads and writes, and the drift is gone', async () => {
    let rebuilding = true;
    const reads: number[] = [];
    const readLoop = (async () => {
      while (rebuilding) {
        for (const path of [`/resource_providers/${other}/inventories`, `/allocations/${moved}`, '/usages?project_id=p1', `/resource_providers?in_tree=${compute}`]) {
          reads.push((await app.request('GET', path, { version: '1.39' })).status);
        }
      }
    })();
    const writes: number[] = [];
    const write = async () => {
      const reply = await app.request('POST', '/resource_providers', { body: { name: `during-${randomUUID()}` }, version: '1.39' });
      writes.push(reply.status);
    };
    const writeLoop = (async () => { while (rebuilding) await write(); })();
    const events: AdminEvent[] = [];
    const result = await admin(app, ['rebuild'], async (event) => {
      events.push(event);
      // Writes certainly committed after the snapshot: they must reach the new tables through the catch-up.
      if (event.kind === 'replay' && event.final) for (let i = 0; i < 3; i++) await write();
    });
    rebuilding = false;
    await Promise.all([readLoop, writeLoop]);

    expect(result.err).toBe('');
    expect(result.code).toBe(EXIT.ok);
    expect(result.out).toMatch(/rebuild: done: \d+ events in [\d.]+ s \([\d,]+ events\/s, memory replay\); [1-9]\d* events caught up/);
    expect(result.out).toMatch(/rebuild: swapped in: \d+ last events applied while appends waited \d+ ms/);
    expect(events.filter((e) => e.kind === 'written').length).toBeGreaterThan(5);
    expect(reads.length).toBeGreaterThan(8);
    expect(reads.filter((status) => status !== 200)).toEqual([]);
    expect(writes.length).toBeGreaterThanOrEqual(3);
    expect(writes.filter((status) => status !== 200)).toEqual([]);

    expect((await app.request('GET', `/resource_providers/${other}/inventories`)).body.inventories.VCPU.total).toBe(64);
    expect((await app.request('GET', `/allocations/${vm}`)).body.allocations[compute].resources).toEqual({ VCPU: 4, MEMORY_MB: 4096 });
    // The order it was written in survives the log's jsonb (written_order), not the classes' name order.
    expect(Object.keys((await app.request('GET', `/allocations/${vm}`)).body.allocations[compute].resources)).toEqual(['VCPU', 'MEMORY_MB']);
    const written = (await app.request('GET', '/resource_providers?name=compute-1-fpga', { version: '1.14' })).body.resource_providers;
    expect(written.map((p: { root_provider_uuid: string }) => p.root_provider_uuid)).toEqual([compute]);
    const after = await admin(app, ['verify']);
    expect(after.out).not.toContain('DRIFT');
    expect(after.code).toBe(EXIT.ok);
  });

  it('keeps working on the swapped-in tables: writes land in them and verify stays clean', async () => {
    await claim(vm, compute, { VCPU: 8, MEMORY_MB: 4096 }, 1);
    expect((await app.request('GET', `/resource_providers/${compute}/usages`)).body.usages.VCPU).toBe(8);
    expect((await admin(app, ['verify'])).code).toBe(EXIT.ok);
  });

  it('rebuilds as the built command too, the usage hours\' rows made on a worker thread, and verify stays clean', async () => {
    const hours = async () => (await db.query('SELECT * FROM read_models.rm_usage_hours ORDER BY project_id, user_id, consumer_type, resource_class, hour_start')).rows;
    const before = await hours();
    expect(before.length).toBeGreaterThan(0);
    const rebuilt = await adminProcess(['rebuild'], app.databaseUrl);
    expect(rebuilt.stdout).toContain("usage hours' rows made on a worker thread");
    expect(rebuilt.stdout).toMatch(/rebuild: done: \d+ events/);
    expect(rebuilt.code).toBe(0);
    expect(await hours()).toEqual(before);
    // As npm run bench:rebuild reads it: the result alone, as JSON, with the process's CPU time.
    const json = await adminProcess(['rebuild', '--json'], app.databaseUrl);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(expect.objectContaining({
      mode: 'memory', events: expect.any(Number), eventsPerSecond: expect.any(Number), processCpuSeconds: expect.any(Number),
    }));
    expect(JSON.parse(json.stdout).events).toBeGreaterThan(20);
    const verified = await adminProcess(['verify'], app.databaseUrl);
    expect(verified.stdout).not.toContain('DRIFT');
    expect(verified.code).toBe(0);
  });

  it('shows each projection at the log\'s head, with the last rebuild', async () => {
    const result = await admin(app, ['status']);
    expect(result.code).toBe(EXIT.ok);
    expect(result.out).toMatch(/^log: \d+ events, head at position \d+ \(transaction \d+\)$/m);
    for (const name of ['providers', 'resource-classes', 'traits', 'allocations']) {
      expect(result.out).toMatch(new RegExp(`^${name}: inline, at position \\d+ \\(transaction \\d+\\), lag 0 events; rebuilt \\S+ from \\d+ events`, 'm'));
    }
    const json = JSON.parse((await admin(app, ['status', '--json'])).out);
    expect(json.projections.every((p: { lag: number }) => p.lag === 0)).toBe(true);
    expect(json.rebuildRunning).toBe(false);
  });

  it('describes a database no server has started on, creating nothing', async () => {
    const empty = await createTestDatabase('pl_e2e');
    try {
      const lines: string[] = [];
      const code = await runAdmin(['status'], { DATABASE_URL: empty.url }, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
      expect(code).toBe(EXIT.ok);
      expect(lines[0]).toBe('log: 0 events, empty');
      expect(lines).toContain('read models: not created yet (start the server or run `rebuild` once)');
      const client = new Client({ connectionString: empty.url });
      await client.connect();
      expect((await client.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname IN ('public', 'read_models')`)).rows[0].n).toBe(0);
      await client.end();
    } finally {
      await empty.drop();
    }
  });

  it('explains its usage, and refuses what it does not know', async () => {
    expect((await admin(app, [])).code).toBe(EXIT.usage);
    expect((await admin(app, ['help'])).out).toContain('usage: placement-admin <command>');
    const unknown = await admin(app, ['rebuld']);
    expect(unknown).toMatchObject({ code: EXIT.usage, err: expect.stringContaining('unknown command rebuld') });
    expect((await admin(app, ['verify', '--fast'])).err).toContain('unknown option --fast');
    const noDatabase = await runAdmin(['status'], {}, { out: () => undefined, err: () => undefined });
    expect(noDatabase).toBe(EXIT.usage);
  });
});
