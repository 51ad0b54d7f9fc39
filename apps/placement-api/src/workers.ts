import cluster, { Worker } from 'node:cluster';
import type { Logger } from '#platform/logger.js';
import { missingHeapFlags } from './heap-flags.js';
import { SCRAPED_THROUGH_PRIMARY, serveClusterScrapes } from './operations/cluster-scrape.js';

/** A worker that dies this soon after starting is failing to start: restarting it would only spin. */
const FAILED_START_MS = 5000;

/**
 * PLACEMENT_WORKERS=N: this (primary) process serves nothing itself; it forks N API workers that
 * share the listening port (node:cluster hands connections round-robin), restarts a worker that
 * dies, and passes SIGTERM on so each finishes its in-flight requests. Everything a worker
 * shares with the others lives in PostgreSQL, so any worker may answer any request.
 */
export function runWorkers(count: number, env: Record<string, string>, logger: Logger, onStopped: () => Promise<void>): void {
  let stopping = false;
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean)];
  cluster.setupPrimary({ execArgv: [...process.execArgv, ...missingHeapFlags(given)] });
  serveClusterScrapes();
  const started = new Map<Worker, number>();
  const fork = () => started.set(cluster.fork({ ...env, [SCRAPED_THROUGH_PRIMARY]: '1' }), Date.now());
  for (let i = 0; i < count; i++) fork();
  cluster.on('exit', (worker, code, signal) => {
    const startedAt = started.get(worker) ?? 0;
    started.delete(worker);
    if (stopping) {
      if (started.size === 0) void onStopped().then(() => process.exit(0));
      return;
    }
    if (Date.now() - startedAt < FAILED_START_MS && code !== 0) {
      logger.fatal(`worker ${worker.process.pid} failed to start (exit ${code ?? signal}); stopping`);
      stopping = true;
      for (const other of started.keys()) other.process.kill('SIGTERM');
      if (started.size === 0) void onStopped().then(() => process.exit(code ?? 1));
      return;
    }
    logger.warn(`worker ${worker.process.pid} exited (${code ?? signal}); starting another`);
    fork();
  });
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: stopping ${started.size} workers`);
    for (const worker of started.keys()) worker.process.kill('SIGTERM');
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
