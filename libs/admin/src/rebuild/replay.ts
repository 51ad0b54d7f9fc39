import type { PoolClient } from 'pg';
import type { EventStore, InlineProjector, LogPosition, RecordedEvent } from '#event-store/index.js';
import { readLogRange, START } from '#event-store/index.js';
import type { Reporter } from './admin-events.js';
import { MemoryPlan, MemoryReplaySet } from './memory/memory-replays.js';
import { ReplayProgress, Throttle } from './progress.js';
import { quoteIdent } from './schema/schema-admin.js';

/** Small: what a batch holds is copied at each scavenge while the next one is fetched. */
const BATCH_EVENTS = 2_000;
const SQL_BATCH_EVENTS = 1_000;

export interface ReplayOutcome {
  readonly events: number;
  readonly seconds: number;
}

/** The part of the log a replay reads, through the event store port: after `from`, up to `until`. */
export interface LogRange {
  readonly store: EventStore;
  readonly from: LogPosition;
  readonly until: LogPosition;
  /** How many events that is, for the progress reports. */
  readonly total: number;
}

/** The log from its start up to `until`: its head now unless given. */
export async function logUpTo(store: EventStore, until?: LogPosition): Promise<LogRange> {
  const end = until ?? await store.head();
  return { store, from: START, until: end, total: await store.countEvents(START, end) };
}

export const describeRange = (range: LogRange) => `${range.total} events up to position ${range.until.commit}/${range.until.prepare}`;

/** Runs a batch loop with progress reports (at most one a second, and a final one). */
async function replayLoop(
  range: LogRange, size: number, withMetadata: boolean, report: Reporter,
  apply: (batch: RecordedEvent[]) => void | Promise<void>,
): Promise<ReplayOutcome> {
  const started = performance.now();
  const throttle = new Throttle(1000);
  let events = 0;
  let last: RecordedEvent | null = null;
  const progress = (): ReplayProgress => ({
    done: events, total: range.total, seconds: (performance.now() - started) / 1000, position: last ? String(last.position.prepare) : null,
  });
  for await (const batch of readLogRange(range.store, range.from, range.until, size, withMetadata ? {} : { metadata: false })) {
    await apply(batch);
    events += batch.length;
    last = batch[batch.length - 1];
    if (throttle.due()) await report({ kind: 'replay', progress: progress(), final: false });
  }
  const done = progress();
  await report({ kind: 'replay', progress: done, final: true });
  return { events, seconds: done.seconds };
}

/** What a replay into memory does with the rows final before the end of the log. */
export interface Draining {
  /** Closed usage hours taken out as plain moves (MemoryReplaySet.takeDrainedHours), their rows made elsewhere. */
  readonly hoursApart: boolean;
  /** After each batch: takes what was drained out of `memory` and writes it. */
  write(memory: MemoryReplaySet): Promise<void>;
}

/**
 * The fast way: the log into plain maps. Given `draining`, rows final before the end of the
 * log are handed to it after each batch and forgotten; the rest are written at the end.
 */
export async function replayIntoMemory(
  range: LogRange, plan: Extract<MemoryPlan, { kind: 'memory' }>, report: Reporter, draining?: Draining,
): Promise<{ memory: MemoryReplaySet; outcome: ReplayOutcome }> {
  const memory = plan.create();
  if (draining) memory.drainAsYouGo(draining.hoursApart);
  // A transaction's events may straddle two batches: its tail waits for the next one.
  let pending: RecordedEvent[] = [];
  // The in-memory twins read no metadata; the projections' SQL is handed events whole.
  const outcome = await replayLoop(range, BATCH_EVENTS, false, report, async (batch) => {
    const groups = byTransaction([...pending, ...batch]);
    pending = groups.pop() ?? [];
    for (const group of groups) memory.applyTransaction(group);
    await draining?.write(memory);
  });
  if (pending.length > 0) memory.applyTransaction(pending);
  return { memory, outcome };
}

/** The general way: each projection's own SQL, a transaction per batch, into `schema`. */
export async function replayThroughSql(
  range: LogRange, writer: PoolClient, schema: string, projector: InlineProjector, report: Reporter,
): Promise<ReplayOutcome> {
  const apply = async (events: RecordedEvent[]) => {
    await writer.query('BEGIN');
    try {
      await applyWithSql(writer, schema, projector, events);
      await writer.query('COMMIT');
    } catch (error) {
      await writer.query('ROLLBACK');
      throw error;
    }
  };
  let pending: RecordedEvent[] = [];
  const outcome = await replayLoop(range, SQL_BATCH_EVENTS, true, report, async (batch) => {
    const groups = byTransaction([...pending, ...batch]);
    pending = groups.pop() ?? [];
    if (groups.length > 0) await apply(groups.flat());
  });
  if (pending.length > 0) await apply(pending);
  return outcome;
}

/**
 * Inside the caller's transaction: the projections' unqualified names resolve in `schema`. The
 * projector sees one logged transaction at a time, as it saw it on the append: it applies a
 * call's events projection by projection, so a call spanning transactions would reorder them.
 */
export async function applyWithSql(client: PoolClient, schema: string, projector: InlineProjector, events: readonly RecordedEvent[]): Promise<void> {
  await client.query(`SET LOCAL search_path = ${quoteIdent(schema)}, public`);
  for (const group of byTransaction(events)) await projector(client, group, group[group.length - 1].position);
}

/** Consecutive events of the same append (one commit of the log), in order. */
export function byTransaction<E extends { readonly position: LogPosition }>(events: readonly E[]): E[][] {
  const groups: E[][] = [];
  for (const event of events) {
    const last = groups[groups.length - 1];
    if (last && last[0].position.commit === event.position.commit) last.push(event);
    else groups.push([event]);
  }
  return groups;
}
