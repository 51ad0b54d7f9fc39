import { BenchClient } from '../bench/http.js';
import { checkStorm } from '../bench/storm/check.js';
import { stormCloud } from '../bench/storm/cloud.js';
import { cloudState } from '../bench/storm/cloud-state.js';
import { importUpstreamState } from '../bench/upstream-import.js';
import { FLAT_MIX, NESTED_MIX } from '../bench/storm/flavors.js';
import { loadCloud } from '../bench/storm/load.js';
import { planInstances, storm } from '../bench/storm/scheduler.js';
import { WarmUp } from '../bench/storm/warm-up.js';
import { stackFloor } from '../bench/storm/floor.js';
import { schedulerTime } from '../bench/storm/figures.js';
import { runAgainst } from '../bench/storm/against.js';
import { parseStormOptions } from '../bench/storm/options.js';
import { againstLines } from '../bench/storm/report.js';
import { createTestDatabase, TestDatabase } from '../support/database.js';
import { SERVER_ENTRY, ServerProcess, startServerProcess } from '../support/server-process.js';

jest.setTimeout(120_000);

/**
 * A tiny boot storm against our built server (npm run bench:storm's machinery, without its
 * measuring): every instance of both flavor mixes finds a host, and the storm's own consistency
 * check finds the claims, the providers and the project usages agreeing. A storm that cannot
 * run, or a check that cannot tell sound from broken, would otherwise first show in a bench run.
 * One server holds both clouds (a flat flavor may land in a tree, as it may in Nova), so the
 * spec starts one server.
 */
describe('a tiny storm', () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let client: BenchClient;
  const clouds = [...stormCloud('flat', 12, 7), ...stormCloud('nested', 12, 8)];

  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startServerProcess({ DATABASE_URL: db.url, PLACEMENT_AUTH_STRATEGY: 'noauth2' });
    client = new BenchClient(server.url, '1.39', false, true);
    await loadCloud(new BenchClient(server.url, '1.39'), clouds);
  });
  afterAll(async () => {
    client?.close();
    await server?.stop();
    await db?.drop();
  });

  // Before the storm below, whose claims move the generations.
  it('imports (--load import) the very cloud that loading it through the API makes', async () => {
    const imported = await createTestDatabase();
    await importUpstreamState(cloudState(clouds), imported.url);
    const copy = await startServerProcess({ DATABASE_URL: imported.url, PLACEMENT_AUTH_STRATEGY: 'noauth2' });
    const copyClient = new BenchClient(copy.url, '1.39', false, true);
    try {
      const everything = async (on: BenchClient) => {
        const { body } = await on.expect('GET', '/resource_providers', undefined, [200]);
        const providers = (JSON.parse(body) as { resource_providers: { uuid: string; links: unknown }[] }).resource_providers;
        return Promise.all(providers.sort((a, b) => a.uuid.localeCompare(b.uuid)).map(async ({ links: _links, ...provider }) => {
          const read = async (what: string) => JSON.parse((await on.expect('GET', `/resource_providers/${provider.uuid}/${what}`, undefined, [200])).body);
          return { provider, inventories: await read('inventories'), traits: await read('traits'), aggregates: await read('aggregates') };
        }));
      };
      const served = await everything(copyClient);
      expect(served).toHaveLength(clouds.flat().length);
      expect(served).toEqual(await everything(client));
    } finally {
      copyClient.close();
      await copy.stop();
      await imported.drop();
    }
  });

  it('schedules every instance of both mixes and leaves usages equal to the claims', async () => {
    const instances = [...planInstances(FLAT_MIX, 12, 2, 7), ...planInstances(NESTED_MIX, 12, 2, 8)];
    const result = await storm(new BenchClient(server.url, '1.36', false, true), instances, 4, 7);
    expect(result.noValidHost).toBe(0);
    expect(result.acknowledged).toHaveLength(24);
    expect(await checkStorm(client, result.acknowledged)).toEqual([]);
    // The check sees a claim the server does not hold.
    const [first] = result.acknowledged;
    const forged = { ...first, allocations: Object.fromEntries(Object.entries(first.allocations).map(([rp, a]) => [rp, { resources: { ...a.resources, DISK_GB: 1 } }])) };
    expect((await checkStorm(client, [forged, ...result.acknowledged.slice(1)])).length).toBeGreaterThan(0);
  });

  it('warms up in rounds, each deleted before the next, and the check holds the deleted to nothing', async () => {
    const lean = new BenchClient(server.url, '1.36', false, true);
    const warmed = new WarmUp(lean, 4, 9);
    await warmed.rounds(planInstances(FLAT_MIX, 10, 2, 9), 4);
    expect(warmed.failed).toBe(0);
    expect(warmed.released).toHaveLength(10);
    expect(await checkStorm(client, [], warmed.released)).toEqual([]);
    // A claim still held is no deleted one.
    const kept = await storm(lean, planInstances(FLAT_MIX, 1, 1, 10), 1, 10);
    expect(await checkStorm(client, [], kept.acknowledged)).toEqual(expect.arrayContaining([`${kept.acknowledged[0].consumer}: deleted, yet holds allocations`]));
    await client.expect('DELETE', `/allocations/${kept.acknowledged[0].consumer}`, undefined, [204]);
  });

  it('weighs for --weigh-ms between each answer and its claim, and counts that apart from its waits', async () => {
    const lean = new BenchClient(server.url, '1.36', false, true);
    const weighed = await storm(lean, planInstances(FLAT_MIX, 3, 1, 11), 1, 11, performance.now(), 40);
    expect(weighed.acknowledged).toHaveLength(3);
    const spent = schedulerTime(weighed);
    expect(spent.weighing).toBe(40 * weighed.puts.length / 3);
    // One scheduler: its answers' waits and its weighing fit in its time, a remainder of its own left over.
    expect(spent.own).toBeGreaterThanOrEqual(0);
    expect(weighed.seconds * 1000).toBeGreaterThanOrEqual(40 * weighed.puts.length);
    await Promise.all(weighed.acknowledged.map((a) => client.expect('DELETE', `/allocations/${a.consumer}`, undefined, [204])));
  });

  it("plays a storm's traffic to a bare node:http server on PostgreSQL for the stack's floor", async () => {
    // It checks its own work: every PUT acknowledged is a row written, else it throws.
    const floor = await stackFloor({ gets: 60, puts: 50, getBytes: 4321.4, putBytes: 250 }, 50, 4);
    expect(Number.isFinite(floor.server) && floor.server >= 0).toBe(true);
    expect(Number.isFinite(floor.database) && floor.database >= 0).toBe(true);
  });

});

/**
 * `--against`: two builds of ours, each on its own copy of the cloud, stormed in alternating
 * turns (here the same build twice). Every turn is measured, each build's storm is checked as a
 * storm of one build is, and the report pairs the turns slice by slice.
 */
describe('two builds stormed in turns', () => {
  it('warms both up round by round, boots every slice on both builds, whichever first, and checks each build apart', async () => {
    // Two rounds of warm-up (of --instances each), which the builds take in turns.
    const options = parseStormOptions(['--servers', 'ours', '--providers', '12', '--instances', '12', '--warmup', '24', '--schedulers', '3',
      '--projects', '2', '--against', SERVER_ENTRY, '--slices', '3']);
    const said: string[] = [];
    const { storms, turns } = await runAgainst({ ...options, against: SERVER_ENTRY }, stormCloud('flat', 12, 7), FLAT_MIX,
      planInstances(FLAT_MIX, 24, 2, 9), planInstances(FLAT_MIX, 12, 2, 7), {}, (line) => said.push(line));
    expect(said).toEqual([expect.stringMatching(/^ {2}ours {5}loaded through the API/), expect.stringMatching(/^ {2}against {2}loaded through the API/)]);
    expect(turns.map((t) => `${t.slice}:${t.server}`)).toEqual(['0:ours', '0:against', '1:against', '1:ours', '2:ours', '2:against']);
    for (const t of turns) {
      expect(t.instances).toBe(4);
      expect(t.cpuMs).toBeGreaterThan(0);
    }
    expect(storms.map((s) => [s.server, s.result.acknowledged.length, s.warmedBy, s.problems])).toEqual([['ours', 12, 24, []], ['against', 12, 24, []]]);
    expect(againstLines(turns, SERVER_ENTRY)[0]).toMatch(/over ours', slice by slice \(3 slices\): mean \d/);
  }, 180_000);
});
