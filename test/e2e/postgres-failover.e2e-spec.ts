import { randomUUID } from 'node:crypto';
import { adminJson } from '../support/failover/admin.js';
import { missingForFailover } from '../support/failover/binaries.js';
import { checkpointsAtHead, logIntegrity } from '../support/failover/log-checks.js';
import { ClaimRecord, Claimers, startClaimers } from '../support/failover/claimers.js';
import { Haproxy, startHaproxy } from '../support/failover/haproxy.js';
import { PostgresPair, startPostgresPair } from '../support/failover/postgres-pair.js';
import { startServerProcess, ServerProcess } from '../support/server-process.js';

jest.setTimeout(120_000);

const missing = missingForFailover();
// Under CI everything is installed (.ci/run): a missing piece there is a failure, not a skip.
const suite = missing && process.env.CI !== 'true' ? describe.skip : describe;
if (missing && process.env.CI !== 'true') process.stdout.write(`postgres-failover: skipped, missing ${missing}\n`);

const HEADERS = { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39', 'content-type': 'application/json' };
const HOT_CAPACITY = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 15: a real PostgreSQL failover under the API. A primary with a synchronous standby,
 * the API connected through haproxy (as deployments front Patroni), claims from several
 * clients; the primary is SIGKILLed, the standby promoted, haproxy switched. No acknowledged
 * claim may be lost, no provider over-committed, the read models and the candidate index must
 * match the log, and the same API process must serve again within seconds.
 */
// inline: projections in the append's transaction; async: the embedded projector's own connection
// and its LISTEN connection must find the new primary too.
suite.each(['inline', 'async'])('a PostgreSQL failover behind haproxy while claims run (projections %s)', (projections) => {
  let pair: PostgresPair;
  let proxy: Haproxy;
  let server: ServerProcess;
  let databaseUrl: string;
  const providers: string[] = [];

  beforeAll(async () => {
    pair = await startPostgresPair('placement');
    proxy = await startHaproxy(pair.primaryPort);
    databaseUrl = `postgres://postgres@127.0.0.1:${proxy.port}/placement`;
    server = await startServerProcess({ DATABASE_URL: databaseUrl, PLACEMENT_AUTH_STRATEGY: 'noauth2', LOG_LEVEL: 'warn', PLACEMENT_PROJECTIONS: projections });
    for (const [i, total] of [HOT_CAPACITY, 100_000, 100_000, 100_000].entries()) {
      const uuid = randomUUID();
      await call('POST', '/resource_providers', { name: `failover-${i}`, uuid });
      await call('PUT', `/resource_providers/${uuid}/inventories`, { resource_provider_generation: 0, inventories: { VCPU: { total } } });
      providers.push(uuid);
    }
  });
  afterAll(async () => {
    await server?.stop();
    await proxy?.stop();
    await pair?.stop();
  });

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const reply = await fetch(`${server.url}${path}`, { method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await reply.text();
    if (reply.status >= 300 && method !== 'GET') throw new Error(`${method} ${path}: ${reply.status} ${text}`);
    return { status: reply.status, json: text ? JSON.parse(text) : undefined };
  }

  it('loses no acknowledged claim, over-commits nothing, and serves again without a restart', async () => {
    const claimers: Claimers = startClaimers(server.url, providers, 6);
    await sleep(3000);
    const acknowledgedBefore = claimers.records.filter((r) => r.status === 204).length;

    const killedAt = Date.now();
    await pair.killPrimary();
    // What Patroni and its haproxy would do: promote the synchronous standby, send clients to it.
    await pair.promoteStandby();
    await proxy.switchTo(pair.standbyPort);
    const switchedAt = Date.now();
    let servedAgainAt: number | undefined;
    while (Date.now() - switchedAt < 20_000) {
      servedAgainAt = claimers.records.find((r) => r.sentAt >= switchedAt && r.status === 204)?.sentAt;
      if (servedAgainAt && Date.now() - servedAgainAt > 3000) break;
      await sleep(100);
    }
    await claimers.stop();
    const records = claimers.records;
    if (server.child.exitCode !== null) process.stdout.write(`postgres-failover: the API exited:\n${server.output().slice(-5000)}\n`);
    expect(server.child.exitCode).toBeNull();
    const byStatus = tally(records);
    const outage = records.filter((r) => r.sentAt >= killedAt && r.status !== 204 && r.status !== 409);

    // Every acknowledged claim is readable on the new primary; every other answer was a refusal or a 503.
    const acknowledged = records.filter((r) => r.status === 204);
    const lost: string[] = [];
    const applied = new Map<string, ClaimRecord>();
    for (const record of records) {
      const { json } = await call('GET', `/allocations/${record.consumer}`);
      const held = json.allocations?.[record.provider]?.resources?.VCPU;
      if (held === record.vcpu) applied.set(record.consumer, record);
      else if (record.status === 204) lost.push(record.consumer);
    }
    const appliedDespiteFailure = [...applied.values()].filter((r) => r.status !== 204);
    const unexpected = records.filter((r) => ![204, 409, 503].includes(r.status as number));
    process.stdout.write(`postgres-failover (${projections}): ${JSON.stringify({
      acknowledged: acknowledged.length, acknowledgedBeforeKill: acknowledgedBefore, lost: lost.length, byStatus,
      answeredDuringOutage: outage.length, outcomeUnknown: records.filter((r) => /outcome of this write is unknown/.test(r.detail ?? '')).length,
      appliedDespite503: appliedDespiteFailure.length,
      slowest: [...records].sort((a, b) => b.ms - a.ms).slice(0, 3).map((r) => `${r.status} sent ${r.sentAt - killedAt} ms after the kill, answered in ${r.ms} ms`),
      killToSwitchMs: switchedAt - killedAt, killToServedMs: servedAgainAt && servedAgainAt - killedAt, switchToServedMs: servedAgainAt && servedAgainAt - switchedAt,
    })}\n`);
    expect(lost).toEqual([]);
    expect(unexpected.map((r) => `${r.status} ${r.detail}`)).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(servedAgainAt).toBeDefined();
    expect(servedAgainAt! - switchedAt).toBeLessThan(10_000);
    for (const record of records.filter((r) => r.status === 503)) {
      expect(Number(record.retryAfter)).toBeGreaterThan(0);
      expect(JSON.parse(record.detail!).errors[0]).toMatchObject({ status: 503, code: expect.any(String), request_id: expect.any(String) });
    }
    // A 503 must say whether the write may have happened: an applied one is answered as "outcome unknown".
    for (const record of appliedDespiteFailure) expect(record.detail).toMatch(/outcome .*unknown/i);

    // No over-commit, and the read model's usages are the sum of the claims that exist.
    const expected = new Map<string, number>();
    for (const record of applied.values()) expected.set(record.provider, (expected.get(record.provider) ?? 0) + record.vcpu);
    for (const provider of providers) {
      const { json } = await call('GET', `/resource_providers/${provider}/usages`);
      expect(json.usages.VCPU ?? 0).toBe(expected.get(provider) ?? 0);
    }
    expect(expected.get(providers[0]) ?? 0).toBeLessThanOrEqual(HOT_CAPACITY);
    expect(byStatus[409]).toBeGreaterThan(0);

    // The candidate index (in the API's memory, fed from the log) agrees with the claims.
    const { json: candidates } = await call('GET', '/allocation_candidates?resources=VCPU:1&limit=100');
    for (const provider of providers.slice(1)) {
      expect(candidates.provider_summaries[provider].resources.VCPU.used).toBe(expected.get(provider) ?? 0);
    }

    // The log on the new primary: every stream's revisions gap-free and unique, each event once.
    expect(await logIntegrity(databaseUrl)).toEqual({ broken_streams: 0, duplicate_positions: 0 });
    // The read models match a replay of the log, and every projection's checkpoint is at its head once
    // one more write has gone through (inline checkpoints skip a row a concurrent append holds, so
    // under the clients' load they may trail by a few events by design).
    await call('POST', '/resource_providers', { name: `failover-after-${projections}` });
    const verify = await adminJson(databaseUrl, 'verify');
    expect({ code: verify.code, drift: verify.result?.drift }).toEqual({ code: 0, drift: false });
    const checkpoints = await checkpointsAtHead(databaseUrl);
    expect(checkpoints.length).toBeGreaterThan(0);
    for (const projection of checkpoints) expect(projection).toEqual({ name: projection.name, lag: 0, atHead: true });
  });
});

function tally(records: readonly ClaimRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const record of records) counts[record.status] = (counts[record.status] ?? 0) + 1;
  return counts;
}
