import { overCommitted, readBackMismatches } from '../claims-check.js';
import { claimRound } from '../claims-round.js';
import { databaseStatements, providerSnapshots, readConsumers } from '../claims-snapshot.js';
import { BenchClient } from '../http.js';
import { flatShape } from '../shapes.js';
import { Contender, startOurs, startUpstreamContender } from './contenders.js';
import { cpuMeter } from './process-cpu.js';
import { countLine, goalLine } from './report.js';
import { ServerProfile } from '../server-profile.js';

const GOAL = 40;
/** A few seconds of claiming each: upstream claims far more slowly (docs/performance.md). */
const CLAIMS: Record<'ours' | 'upstream', number> = { ours: 1200, upstream: 60 };
/**
 * Claims made first and not counted, about as long on both (6 to 8 s): a scheduler claims against
 * a server that has long been running, and ours, just loaded, spends more CPU per claim for its
 * first few thousand (V8 compiling the path, PostgreSQL's backends warming; docs/performance.md).
 * Upstream's first claims differ far less.
 */
const WARM_UP: Record<'ours' | 'upstream', number> = { ours: 2000, upstream: 60 };

interface ClaimsFigures { claims: number; seconds: number; perSecond: number; problems: string[] }

/**
 * 10 clients claiming as upstream's perfload job does (GET limit=5, PUT the first), each on a new
 * connection per request, after a warm-up round; every claim of both rounds is checked.
 */
async function claimOn(contender: Contender, quick: boolean, profile: ServerProfile | null): Promise<ClaimsFigures> {
  const shape = flatShape(quick ? 100 : 1000, 0);
  const loader = new BenchClient(contender.url, '1.39', false);
  const client = new BenchClient(contender.url, '1.39', false, true);
  try {
    await shape.load(loader);
    // --quick makes a fifth of each round's claims.
    const claimsOf = (counts: Record<'ours' | 'upstream', number>) => (quick ? counts[contender.name] / 5 : counts[contender.name]);
    const warmUp = await claimRound(client, { query: shape.query }, claimsOf(WARM_UP), 10);
    const statementsBefore = await databaseStatements(client);
    const meter = await cpuMeter(contender.pid, contender.databaseUrl);
    const round = () => claimRound(client, { query: shape.query }, claimsOf(CLAIMS), 10);
    const { result, cpu } = await meter.around(() => ServerProfile.within(contender.name === 'ours' ? profile : null, 'claims (10 clients)', round));
    const claims = result.acknowledged.length;
    const statementsAfter = await databaseStatements(client);
    process.stdout.write(countLine(contender.name, 'claims (10 clients)', claims, result.seconds, 'claims', cpu));
    if (statementsBefore !== null && statementsAfter !== null) {
      process.stdout.write(`  ${contender.name.padEnd(8)} round trips to PostgreSQL: ${((statementsAfter - statementsBefore) / claims).toFixed(1)} per claim (GET + PUT)\n`);
    }
    // Zero over-commit and every acknowledged claim readable as written, on both servers alike.
    const acknowledged = [...warmUp.acknowledged, ...result.acknowledged];
    const problems = [
      ...overCommitted(await providerSnapshots(client)),
      ...readBackMismatches(acknowledged, await readConsumers(client, acknowledged.map((a) => a.consumer))),
    ];
    process.stdout.write(`  ${contender.name.padEnd(8)} consistency: ${problems.length === 0 ? 'sound (no over-commit, every claim read back)' : `VIOLATED: ${problems.slice(0, 5).join('; ')}`}\n`);
    return { claims, seconds: result.seconds, perSecond: claims / result.seconds, problems };
  } finally {
    loader.close();
    client.close();
  }
}

export async function versusClaims(quick: boolean, profile: ServerProfile | null = null): Promise<Record<string, ClaimsFigures>> {
  process.stdout.write(`\n== claims: 10 clients on flat-${quick ? 100 : 1000} after the job's 99 and a warm-up round, randomized candidates as upstream's perfload server\n`);
  const env = { PLACEMENT_RANDOMIZE_ALLOCATION_CANDIDATES: 'true' };
  const figures: Record<string, ClaimsFigures> = {};
  for (const start of [() => startOurs(env, profile?.nodeArgs), () => startUpstreamContender(env)]) {
    const contender = await start();
    try {
      figures[contender.name] = await claimOn(contender, quick, profile);
    } finally {
      await contender.stop();
    }
    if (profile && contender.name === 'ours') process.stdout.write(profile.report());
  }
  process.stdout.write(goalLine('claims per second', figures.ours.perSecond / figures.upstream.perSecond, GOAL));
  return figures;
}
