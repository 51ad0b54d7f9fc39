/**
 * npm run bench:claims (also `npm run bench -- claims`): claims under concurrency (issue 3).
 *
 * On upstream's flat shape (../shared/reference/perfload-shapes.md: 1000 providers and the
 * job's 99 one-by-one claims), 10 clients claim as the perfload job does, against a server
 * configured as the job's (randomized candidates), each claim for a project of its own. Then a
 * contention round: 40 clients of one project claim from 5 small providers until nothing fits
 * (a tenant's burst: the same providers and the same project's usage rows). Last, the consistency
 * check over what the API answers. Goal: at least 20 times upstream's ~5 claims/s, no over-commit.
 */
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { startBenchServer } from './bench-server.js';
import {
  claimsPerProject, claimsThatFit, leftovers, overCommitted, readBackMismatches, Resources, resourcesOf, usageMismatches,
} from './claims-check.js';
import { cpuSampler, cpuSpent } from './claims-cpu.js';
import { ClaimTarget, claimRound, claimUntilFull, RoundResult } from './claims-round.js';
import { appendConflicts, databaseStatements, projectUsages, providerSnapshots, readConsumers, sharedSince, sharedTally } from './claims-snapshot.js';
import { BenchClient } from './http.js';
import { percentile } from './measure.js';
import { flatShape, LoadFigures } from './shapes.js';

export const CLAIMS_WORKLOAD = 'claims';
const UPSTREAM_CLAIMS_PER_SECOND = 5;
const GOAL_CLAIMS_PER_SECOND = 20 * UPSTREAM_CLAIMS_PER_SECOND;
const CONTENTION_AGGREGATE = '0c1a1b2c-3d4e-4f50-8a61-7b8c9d0e1f20';
const CONTENTION_QUERY = `/allocation_candidates?resources=VCPU:2,MEMORY_MB:512&member_of=${CONTENTION_AGGREGATE}`;
const CONTENTION_PROVIDERS = 5;
const CONTENTION_CLIENTS = 40;

export interface RoundFigures {
  readonly clients: number;
  readonly claims: number;
  readonly seconds: number;
  readonly perSecond: number;
  readonly capacityConflicts: number;
  readonly raceConflicts: number;
  /** Appends the server retried internally (placement_event_store_append_conflicts_total). */
  readonly internalRetries: number;
  readonly claimMs: { readonly p50: number; readonly p95: number };
  readonly putMs: { readonly p50: number; readonly p95: number };
  readonly serverCpuMsPerClaim: number | null;
  readonly databaseCpuMsPerClaim: number;
  /** Statements sent to PostgreSQL per claim (GET candidates + PUT), each a round trip. */
  readonly statementsPerClaim: number | null;
  /** Claims/s if the server and PostgreSQL had every core to themselves: cores / CPU per claim. */
  readonly ownCoresCeiling: number | null;
  /** What group commit did in the round (sharedSince). */
  readonly shared: string;
}

export interface ClaimsReport {
  readonly workload: typeof CLAIMS_WORKLOAD;
  readonly load: LoadFigures;
  readonly flat: RoundFigures;
  readonly contention: RoundFigures & { readonly capacity: number };
  readonly consistency: { readonly providers: number; readonly consumersRead: number; readonly problems: string[] };
  readonly goalMet: boolean;
}

/** Small providers that a round of many clients fills: VCPU decides on some, MEMORY_MB on others. */
async function contentionProviders(client: BenchClient): Promise<Set<string>> {
  const uuids = new Set<string>();
  for (let i = 0; i < CONTENTION_PROVIDERS; i++) {
    const uuid = randomUUID();
    await client.expect('POST', '/resource_providers', { uuid, name: `contended-${i}` }, [200]);
    await client.expect('PUT', `/resource_providers/${uuid}/inventories`, {
      resource_provider_generation: 0,
      inventories: {
        VCPU: { total: 8 + 4 * i, reserved: 2, allocation_ratio: 1.5 },
        MEMORY_MB: { total: 8192, reserved: 512 },
      },
    }, [200]);
    await client.expect('PUT', `/resource_providers/${uuid}/aggregates`, { resource_provider_generation: 1, aggregates: [CONTENTION_AGGREGATE] }, [200]);
    uuids.add(uuid);
  }
  return uuids;
}

type Sampler = Awaited<ReturnType<typeof cpuSampler>>;

/** A round with the server's retry counter and the CPU of the server and its database read around it. */
async function measured(client: BenchClient, cpu: Sampler, clients: number, run: () => Promise<RoundResult>) {
  const retriesBefore = await appendConflicts(client);
  const statementsBefore = await databaseStatements(client);
  const sharedBefore = await sharedTally(client);
  const cpuBefore = await cpu.sample();
  const result = await run();
  const spent = cpuSpent(cpuBefore, await cpu.sample());
  const internalRetries = (await appendConflicts(client)) - retriesBefore;
  const statementsAfter = await databaseStatements(client);
  const shared = sharedSince(sharedBefore, await sharedTally(client));
  const claims = result.acknowledged.length;
  const spread = (samples: number[]) => {
    const sorted = [...samples].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
  };
  const figures: RoundFigures = {
    clients, claims, seconds: result.seconds, perSecond: claims / result.seconds,
    capacityConflicts: result.capacityConflicts, raceConflicts: result.raceConflicts, internalRetries,
    claimMs: spread(result.claimMs), putMs: spread(result.putMs),
    serverCpuMsPerClaim: spent.server === null ? null : spent.server / claims,
    databaseCpuMsPerClaim: spent.database / claims,
    statementsPerClaim: statementsBefore === null || statementsAfter === null ? null : (statementsAfter - statementsBefore) / claims,
    ownCoresCeiling: spent.server === null ? null : (availableParallelism() * 1000 * claims) / (spent.server + spent.database),
    shared,
  };
  return { result, figures };
}

/** Everything the consistency rules demand, as a list of what is wrong (empty when sound). */
async function consistency(client: BenchClient, contended: Set<string>, rounds: { result: RoundResult; perClaim: Resources; earlier: number }[]) {
  const snapshots = await providerSnapshots(client);
  const problems = overCommitted(snapshots);
  const [flat, contention] = rounds;
  const inRound = (mine: boolean) => snapshots.filter((p) => contended.has(p.uuid) === mine).map((p) => p.usages);
  problems.push(...usageMismatches(inRound(false), flat.perClaim, flat.earlier + flat.result.acknowledged.length).map((p) => `flat providers: ${p}`));
  problems.push(...usageMismatches(inRound(true), contention.perClaim, contention.result.acknowledged.length).map((p) => `contended providers: ${p}`));
  let projects = 0;
  for (const { result, perClaim } of rounds) {
    for (const [projectId, claims] of claimsPerProject(result.acknowledged)) {
      const project = await projectUsages(client, projectId);
      problems.push(...usageMismatches([project.usages], perClaim, claims).map((p) => `project ${projectId}: ${p}`));
      if (project.consumers !== claims) problems.push(`project ${projectId}: ${project.consumers} consumers, ${claims} acknowledged`);
      projects++;
    }
  }
  const acknowledged = rounds.flatMap((r) => r.result.acknowledged);
  const refused = rounds.flatMap((r) => r.result.refused);
  const read = await readConsumers(client, [...acknowledged.map((c) => c.consumer), ...refused]);
  problems.push(...readBackMismatches(acknowledged, read), ...leftovers(refused, read));
  return { snapshots, problems, consumersRead: read.size, projects };
}

const f = (n: number, digits = 1) => n.toFixed(digits);
const line = (label: string, r: RoundFigures) =>
  `${label}: ${r.claims} claims by ${r.clients} clients in ${f(r.seconds, 2)} s = ${f(r.perSecond)} claims/s | 409s: ${r.capacityConflicts} capacity, `
  + `${r.raceConflicts} concurrent_update | internal retries ${r.internalRetries} | claim (GET+PUT) p50 ${f(r.claimMs.p50)} ms, p95 ${f(r.claimMs.p95)} ms; `
  + `PUT p50 ${f(r.putMs.p50)} ms, p95 ${f(r.putMs.p95)} ms | CPU per claim: server ${r.serverCpuMsPerClaim === null ? '?' : f(r.serverCpuMsPerClaim, 2)} ms, `
  + `PostgreSQL ${f(r.databaseCpuMsPerClaim, 2)} ms, ${r.statementsPerClaim === null ? '?' : f(r.statementsPerClaim)} round trips to PostgreSQL (${r.ownCoresCeiling === null ? '?' : f(r.ownCoresCeiling)} claims/s on ${availableParallelism()} cores of their own) | ${r.shared}\n`;

export async function runClaims(quick: boolean): Promise<ClaimsReport> {
  // As upstream's perfload server (gate/perfload-server.sh): "Increase our chances of allocating to different providers."
  const server = await startBenchServer({ PLACEMENT_RANDOMIZE_ALLOCATION_CANDIDATES: 'true' });
  const client = new BenchClient(server.url);
  const cpu = await cpuSampler(server.databaseUrl, server.child.pid);
  try {
    const shape = flatShape(1000, 0);
    process.stdout.write(`\n== claims: 10 clients on ${shape.description}; then ${CONTENTION_CLIENTS} clients of one project on ${CONTENTION_PROVIDERS} small providers\n`);
    const load = await shape.load(client);
    const earlier = load.claims?.count ?? 0;
    process.stdout.write(`load: ${load.providers} providers in ${f(load.seconds)} s; the job's ${earlier} claims one by one: `
      + `${f(earlier / (load.claims?.seconds ?? 1))} claims/s\n`);
    const flatTarget: ClaimTarget = { query: shape.query };
    const flat = await measured(client, cpu, 10, () => claimRound(client, flatTarget, quick ? 100 : 300, 10));
    process.stdout.write(line('flat round', flat.figures));

    const contended = await contentionProviders(client);
    const capacity = claimsThatFit(
      (await providerSnapshots(client)).filter((p) => contended.has(p.uuid)), resourcesOf(CONTENTION_QUERY));
    const contentionTarget: ClaimTarget = { query: CONTENTION_QUERY, tenant: { projectId: randomUUID(), userId: randomUUID() } };
    const contention = await measured(client, cpu, CONTENTION_CLIENTS,
      () => claimUntilFull(client, contentionTarget, CONTENTION_CLIENTS, capacity * CONTENTION_CLIENTS));
    process.stdout.write(line(`contention round (room for ${capacity} claims)`, contention.figures));

    const checked = await consistency(client, contended, [
      { result: flat.result, perClaim: resourcesOf(shape.query), earlier },
      { result: contention.result, perClaim: resourcesOf(CONTENTION_QUERY), earlier: 0 },
    ]);
    const problems = checked.problems;
    if (contention.figures.claims !== capacity) problems.push(`contention: ${contention.figures.claims} claims acknowledged, room for exactly ${capacity}`);
    process.stdout.write(problems.length === 0
      ? `consistency: sound — ${checked.snapshots.length} providers within capacity, usages per provider and of ${checked.projects} projects add up to the claims, `
        + `${checked.consumersRead} consumers read back (acknowledged as written, refused empty), contention filled exactly ${capacity}\n`
      : `CONSISTENCY VIOLATED (${problems.length}):\n  ${problems.slice(0, 20).join('\n  ')}\n`);
    const goalMet = problems.length === 0 && flat.figures.perSecond >= GOAL_CLAIMS_PER_SECOND;
    process.stdout.write(`goal (>= ${GOAL_CLAIMS_PER_SECOND} claims/s, 20x upstream's ~${UPSTREAM_CLAIMS_PER_SECOND}, no over-commit): `
      + `${goalMet ? 'met' : 'MISSED'} — ${f(flat.figures.perSecond / UPSTREAM_CLAIMS_PER_SECOND)}x upstream\n`);
    return {
      workload: CLAIMS_WORKLOAD, load, flat: flat.figures, contention: { ...contention.figures, capacity },
      consistency: { providers: checked.snapshots.length, consumersRead: checked.consumersRead, problems }, goalMet,
    };
  } finally {
    client.close();
    await server.stop();
  }
}
