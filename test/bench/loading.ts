/**
 * npm run bench:loading [-- providers] [--profile] (default 2000): issue 14's loading figure alone.
 *
 * Loads flat providers as upstream's placeload does (flatProvider: create, inventories,
 * aggregates, traits) with 10 clients against the built server on a fresh database, and says
 * where the time goes: providers/s, then per write request the CPU of the server and of its
 * PostgreSQL backends (what the figure would be on cores of their own) and the round trips to it.
 * First, one provider alone gives the round trips of each of its four requests (background work
 * of the server, if any, included). PLACEMENT_WORKERS and the like pass through to the server.
 * With --profile, the server's functions of most self time while loading follow the figures.
 */
import { availableParallelism } from 'node:os';
import { startBenchServer } from './bench-server.js';
import { cpuSampler, cpuSpent } from './claims-cpu.js';
import { appendConflicts, databaseStatements, sharedSince, sharedTally } from './claims-snapshot.js';
import { BenchClient, inParallel } from './http.js';
import { flatProvider, flatProviderSteps } from './shapes.js';
import { ServerProfile } from './server-profile.js';

const LOADERS = 10;
const REQUESTS_PER_PROVIDER = 4;
const f = (n: number, digits = 1) => n.toFixed(digits);

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const count = Number(args.find((arg) => !arg.startsWith('--')) ?? 2000);
  const profile = ServerProfile.ifAsked(args);
  const server = await startBenchServer({}, profile?.nodeArgs);
  const client = new BenchClient(server.url);
  const cpu = await cpuSampler(server.databaseUrl, server.child.pid);
  try {
    await inParallel(10, LOADERS, (i) => flatProvider(client, i));
    const perStep: string[] = [];
    for (const [label, step] of flatProviderSteps(client, 10)) {
      const before = await databaseStatements(client);
      await step();
      perStep.push(`${label} ${(await databaseStatements(client))! - before!}`);
    }
    process.stdout.write(`round trips to PostgreSQL per request, one provider alone: ${perStep.join(', ')}\n`);

    const statementsBefore = await databaseStatements(client);
    const conflictsBefore = await appendConflicts(client);
    const sharedBefore = await sharedTally(client);
    const cpuBefore = await cpu.sample();
    const start = process.hrtime.bigint();
    const load = () => inParallel(count, LOADERS, (i) => flatProvider(client, i + 11));
    await ServerProfile.within(profile, `loading ${count} providers`, load);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const spent = cpuSpent(cpuBefore, await cpu.sample());
    const statements = (await databaseStatements(client))! - statementsBefore!;
    const retries = (await appendConflicts(client)) - conflictsBefore;
    const shared = sharedSince(sharedBefore, await sharedTally(client));
    const requests = count * REQUESTS_PER_PROVIDER;
    const server_ = spent.server ?? NaN;
    process.stdout.write(`load: ${count} providers by ${LOADERS} clients in ${f(seconds, 2)} s = ${f(count / seconds)} providers/s, `
      + `${f(requests / seconds)} requests/s | per write request: server CPU ${f(server_ / requests, 3)} ms, `
      + `PostgreSQL CPU ${f(spent.database / requests, 3)} ms, ${f(statements / requests, 2)} round trips | ${retries} appends retried | ${shared} `
      + `(${f((availableParallelism() * 1000 * count) / (server_ + spent.database))} providers/s on ${availableParallelism()} cores of their own)\n`);
  } finally {
    client.close();
    await server.stop();
  }
  if (profile) process.stdout.write(profile.report());
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
