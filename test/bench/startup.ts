import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { EVENT_STORE_SCHEMA } from '#event-store/index.js';
import { formatCount } from '#admin/rebuild/progress.js';
import { childrenOf, ownerOfConnection, rssOf } from './worker-of.js';
import { writeLog } from './write-log.js';

/**
 * npm run bench:startup [-- --events N] [--grow M] [--workers W] [--build DIR] [--keep]
 * The rebuild bench's cloud (10,000 compute nodes, 80,000 consumers): a log of N events (default
 * 1,000,001) made ready as production does (`placement-admin rebuild`: read models and, where the
 * build has them, the candidate snapshot), then the real API started with PLACEMENT_WORKERS=W:
 * the time until each worker answered its first GET /allocation_candidates, and each process's
 * memory once it had. Then the same cloud's log grown to M events (default 5,000,000; more churn,
 * same providers and consumers), made ready again, measured again. The log's first start also
 * reserves its providers' names once (a log written before name streams): it is shown apart, and
 * the goals are checked on the start after it. --build runs another build's dist (e.g. main's,
 * for the figures before).
 */
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const GOAL_MS = 3000;
const RSS_GOAL_MB = 200;
const QUERY = '/allocation_candidates?resources=VCPU:1,MEMORY_MB:1024&limit=5';

function parseArgs(argv: string[]) {
  const option = (name: string, fallback: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
  const events = Number(option('--events', '1000001'));
  const grow = Number(option('--grow', '5000000'));
  const workers = Number(option('--workers', '2'));
  if (![events, workers].every((n) => Number.isInteger(n) && n > 0) || !Number.isInteger(grow)) throw new Error('--events, --grow and --workers take integers');
  return {
    events, grow, workers, build: resolve(option('--build', resolve(__dirname, '../../..'))), keep: argv.includes('--keep'),
    // A database an earlier run kept (--keep): measured as it is, nothing written or rebuilt.
    database: option('--database', ''),
  };
}

function run(command: string, args: string[], env: Record<string, string>): Promise<string> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  return new Promise((done, fail) => child.on('exit', (code) => (code === 0 ? done(out) : fail(new Error(`${args.join(' ')} exited ${code}: ${out.slice(-2000)}`)))));
}

interface Answer { status: number; pid: number | null }

/** One GET on a connection of its own, and which worker process held that connection. */
function ask(port: number, pids: () => number[]): Promise<Answer> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path: QUERY, agent, headers: { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39' } }, (res) => {
      res.resume();
      res.on('end', () => {
        // The server keeps the connection open: its owner can still be looked up.
        const pid = ownerOfConnection(port, req.socket!.localPort!, pids());
        agent.destroy();
        done({ status: res.statusCode ?? 0, pid });
      });
    });
    req.on('error', (error) => {
      agent.destroy();
      fail(error);
    });
    req.end();
  });
}

interface Measured { spawnedAt: number; firstAnswerMs: Map<number, number>; memory: Map<number, { rssMb: number; peakMb: number }>; primary: { rssMb: number; peakMb: number }; logLines: string[] }

async function measureStart(build: string, databaseUrl: string, workers: number): Promise<Measured> {
  // Below Linux's ephemeral range (32768 on): the polling client's own sockets never hold it.
  const port = 20000 + Math.floor(Math.random() * 12000);
  const started = performance.now();
  const spawnedAt = Date.now();
  const child: ChildProcess = spawn(process.execPath, [resolve(build, 'dist/apps/placement-api/src/main.js')], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, PLACEMENT_AUTH_STRATEGY: 'noauth2', PLACEMENT_WORKERS: String(workers) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  try {
    let pids: number[] = [];
    const firstAnswerMs = new Map<number, number>();
    while (firstAnswerMs.size < workers) {
      if (child.exitCode !== null) throw new Error(`the API exited ${child.exitCode}: ${output.slice(-2000)}`);
      if (performance.now() - started > 1_800_000) throw new Error(`no answer from every worker in 30 minutes: ${output.slice(-2000)}`);
      if (pids.length < workers) pids = childrenOf(child.pid!);
      const answer = await ask(port, () => pids).catch(() => null);
      if (answer?.status === 200 && answer.pid !== null && !firstAnswerMs.has(answer.pid)) firstAnswerMs.set(answer.pid, performance.now() - started);
      else if (answer && answer.status !== 200) throw new Error(`GET ${QUERY} answered ${answer.status}`);
      if (!answer) await new Promise((r) => setTimeout(r, 20));
    }
    // A moment for what the first answers left behind to be collected, as a process serving for a while would.
    await new Promise((r) => setTimeout(r, 2000));
    const memory = new Map(pids.map((pid) => [pid, rssOf(pid)]));
    return { spawnedAt, firstAnswerMs, memory, primary: rssOf(child.pid!), logLines: output.split('\n').filter((line) => /candidate (index ready|snapshot)|listening on|running \d+ API workers/.test(line)) };
  } finally {
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(killer);
  }
}

function report(print: (line: string) => void, label: string, measured: Measured, goals = true): void {
  const times = [...measured.firstAnswerMs.values()];
  for (const [pid, ms] of measured.firstAnswerMs) {
    const { rssMb, peakMb } = measured.memory.get(pid)!;
    print(`  worker ${pid}: first GET /allocation_candidates answered after ${(ms / 1000).toFixed(2)} s; RSS ${rssMb.toFixed(0)} MB (peak ${peakMb.toFixed(0)} MB)`);
  }
  print(`  primary: RSS ${measured.primary.rssMb.toFixed(0)} MB`);
  for (const line of measured.logLines) {
    try {
      const { time, msg } = JSON.parse(line);
      print(`  log at ${((Date.parse(time) - measured.spawnedAt) / 1000).toFixed(2)} s: ${msg}`);
    } catch {
      print(`  log: ${line}`);
    }
  }
  const slowest = Math.max(...times);
  const heaviest = Math.max(...[...measured.memory.values()].map((m) => m.rssMb));
  if (!goals) {
    print(`start ${label}: every worker answered within ${(slowest / 1000).toFixed(2)} s; largest worker RSS ${heaviest.toFixed(0)} MB`);
    return;
  }
  print(`STARTUP ${label}: every worker answered within ${(slowest / 1000).toFixed(2)} s (goal ${GOAL_MS / 1000} s: ${slowest < GOAL_MS ? 'met' : 'NOT met'}); `
    + `largest worker RSS ${heaviest.toFixed(0)} MB (goal ${RSS_GOAL_MB} MB: ${heaviest < RSS_GOAL_MB ? 'met' : 'NOT met'})`);
}

async function main() {
  const { events, grow, workers, build, keep, database } = parseArgs(process.argv.slice(2));
  const print = (line: string) => process.stdout.write(`${line}\n`);
  if (database) {
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    print(`build: ${build}; database ${database} as it is`);
    return report(print, database, await measureStart(build, url.toString(), workers));
  }
  const name = `pl_bench_startup_${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const adminCli = (command: string) => run(process.execPath, ['--max-semi-space-size=128', resolve(build, 'dist/apps/placement-admin/src/main.js'), command], { DATABASE_URL: databaseUrl });
  try {
    print(`build: ${build}; database ${name}`);
    let total = 0;
    for (const target of [events, ...(grow > events ? [grow] : [])]) {
      let at = performance.now();
      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(EVENT_STORE_SCHEMA);
      const written = await writeLog(client, { events: target, skip: total, tickMs: 500 });
      total += written;
      await client.query('ANALYZE es_events');
      await client.end();
      print(`log: ${formatCount(written)} events written (${formatCount(total)} in all) in ${((performance.now() - at) / 1000).toFixed(0)} s`);
      at = performance.now();
      await adminCli('rebuild');
      print(`placement-admin rebuild: ${((performance.now() - at) / 1000).toFixed(0)} s`);
      if (total === written) {
        // A log written before the name streams (this bench writes its log straight into the
        // tables) has its providers' names reserved once, at the first start; later starts find
        // them done. That one-time step is shown apart from what the goal is about.
        report(print, `at ${formatCount(total)} events, first start (provider names backfilled once)`, await measureStart(build, databaseUrl, workers), false);
      }
      report(print, `at ${formatCount(total)} events`, await measureStart(build, databaseUrl, workers));
    }
  } finally {
    if (!keep) await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
