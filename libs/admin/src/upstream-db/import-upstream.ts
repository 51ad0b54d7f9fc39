import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import {
  checkUpstreamState, compareStates, ImportPlan, planImport, StreamWrite, UpstreamState,
} from '#domain/index.js';
import { AppendRequest, EventMetadata, EventStore, NO_STREAM, START } from '#event-store/index.js';
import { Reporter } from '../rebuild/admin-events.js';
import { rebuildReadModels } from '../rebuild/rebuild.js';
import { readLedgerState } from './ledger-state-reader.js';
import { IncompleteConsumerIds, readUpstreamState } from './snapshot-reader.js';
import { openSourceSnapshot } from './source-connection.js';
import { parseSourceUrl, SourceUrl } from './source-url.js';

export interface ImportOptions {
  /** upstream's `[placement_database] connection`. */
  readonly from: string;
  readonly dryRun?: boolean;
  readonly incomplete: IncompleteConsumerIds;
  /** A line of progress for the operator. */
  readonly say: (line: string) => void;
  /** Rebuild's own progress, while the read models are made from the imported log. */
  readonly report?: Reporter;
}

export interface ImportResult {
  readonly rows: number;
  readonly events: number;
  readonly streams: number;
  readonly seconds: number;
  readonly written: boolean;
}

/** Refused before anything is written: the target's log is not empty, or the source is unsound. */
export class ImportRefused extends Error {}

/** Events per append: big enough that round trips do not dominate, small enough to report progress often. */
const EVENTS_PER_APPEND = 4000;
const APPENDS_IN_FLIGHT = 2;

async function readSource(url: SourceUrl, incomplete: IncompleteConsumerIds, say: (line: string) => void): Promise<UpstreamState> {
  const started = performance.now();
  const snapshot = await openSourceSnapshot(url);
  try {
    let rows = 0;
    const state = await readUpstreamState(snapshot.query, incomplete, (table, count) => {
      rows += count;
      say(`read ${table}: ${count} rows`);
    });
    const seconds = (performance.now() - started) / 1000;
    say(`read ${rows} rows of ${url.redacted} (schema ${state.revision}) in ${seconds.toFixed(1)} s (${Math.round(rows / Math.max(seconds, 1e-3))} rows/s)`);
    return state;
  } finally {
    await snapshot.close();
  }
}

/**
 * Reads an upstream Placement database in one snapshot and writes the events that reproduce it
 * into an empty log, then makes the read models from that log (the rebuild's fast path).
 */
export async function importUpstream(pool: Pool, targetUrl: string, store: EventStore, options: ImportOptions): Promise<ImportResult> {
  const started = performance.now();
  const url = parseSourceUrl(options.from);
  const existing = await store.readAll(START, 1);
  if (existing.length > 0) {
    throw new ImportRefused(`the target's log is not empty (it holds at least stream ${existing[0].stream}): `
      + 'an import starts a new log; point DATABASE_URL at a new, empty database');
  }
  const state = await readSource(url, options.incomplete, options.say);
  const rows = state.providers.length + state.consumers.length;
  const problems = checkUpstreamState(state);
  if (problems.length > 0) {
    for (const problem of problems) options.say(`problem: ${problem}`);
    throw new ImportRefused(`the source has ${problems.length} problem(s) that keep it from being imported exactly; nothing was written`);
  }
  const plan = planImport(state, { source: url.redacted, importedAt: new Date().toISOString() });
  const streams = plan.phases.reduce((n, phase) => n + phase.length, 0);
  options.say(`found ${state.resourceClasses.length} custom resource classes, ${state.traits.length} custom traits, `
    + `${state.providers.length} resource providers, ${state.consumers.length} consumers: ${plan.events} events in ${streams} streams`);
  if (options.dryRun) {
    options.say('dry run: the source reads and checks cleanly; nothing was written');
    return { rows, events: plan.events, streams, seconds: (performance.now() - started) / 1000, written: false };
  }
  await appendPlan(store, plan, options.say);
  options.say('making the read models from the imported log');
  await rebuildReadModels(pool, targetUrl, store, { report: options.report });
  const seconds = (performance.now() - started) / 1000;
  options.say(`imported ${plan.events} events in ${seconds.toFixed(1)} s`);
  return { rows, events: plan.events, streams, seconds, written: true };
}

async function appendPlan(store: EventStore, plan: ImportPlan, say: (line: string) => void): Promise<void> {
  const metadata: EventMetadata = { requestId: `req-${randomUUID()}`, userId: null, projectId: null, roles: ['admin'], importedBy: 'placement-admin import' };
  const started = performance.now();
  let written = 0, lastReport = started;
  const append = async (batch: StreamWrite[]) => {
    const requests: AppendRequest[] = batch.map((write) => ({
      stream: write.stream, expectedRevision: NO_STREAM, events: write.events.map((event) => ({ ...event, metadata })),
    }));
    try {
      await store.append(requests);
    } catch (error) {
      throw new Error(`writing the log failed after ${written} of ${plan.events} events: ${(error as Error).message}. `
        + 'The target now holds a partial import: drop and recreate its database before importing again');
    }
    written += requests.reduce((n, request) => n + request.events.length, 0);
    const now = performance.now();
    if (now - lastReport > 1000 || written === plan.events) {
      lastReport = now;
      const rate = written / Math.max((now - started) / 1000, 1e-3);
      say(`wrote ${written} of ${plan.events} events (${Math.round(rate)} events/s, ${((plan.events - written) / rate).toFixed(0)} s left)`);
    }
  };
  for (const phase of plan.phases) {
    // Order matters between phases only (parents before children): a phase's appends may overlap,
    // so the database works on one while this process serializes the next.
    const pending = batches(phase);
    const worker = async () => {
      for (let next = pending.next(); !next.done; next = pending.next()) await append(next.value);
    };
    await Promise.all(Array.from({ length: APPENDS_IN_FLIGHT }, worker));
  }
}

function* batches(phase: readonly StreamWrite[]): Generator<StreamWrite[]> {
  let batch: StreamWrite[] = [], events = 0;
  for (const write of phase) {
    batch.push(write);
    events += write.events.length;
    if (events >= EVENTS_PER_APPEND) {
      yield batch;
      batch = [];
      events = 0;
    }
  }
  if (batch.length > 0) yield batch;
}

/** import --verify: every entity of the source against what this service serves; empty when equal. */
export async function verifyImport(pool: Pool, options: Pick<ImportOptions, 'from' | 'incomplete' | 'say'>): Promise<string[]> {
  const source = await readSource(parseSourceUrl(options.from), options.incomplete, options.say);
  return compareStates(source, await readLedgerState(pool));
}
