import type { Pool } from 'pg';
import {
  PROVIDER_NAMES_BACKFILLED_STREAM, ProviderNameTaken, ProviderNamesBackfilled, decideProviderName, providerNameDecider, providerNameStream,
} from '#domain/index.js';
import { EventStore, LogPosition, NO_STREAM, RecordedEvent, START } from '#event-store/index.js';
import { Attempt } from '../shared/attempt.js';
import { CommandRunner } from '../shared/command-runner.js';
import { DeciderStates } from '../shared/decider-states.js';
import { unique } from '#domain/shared/unique.js';

export interface BackfillResult {
  readonly providers: number;
  readonly reserved: number;
  /** Names two providers of the old log both had: left to their first holder, reported. */
  readonly conflicts: readonly string[];
}

const PROVIDER = 'provider-';
const BATCH = 200;
const TAIL_PAGE = 1000;
/** Who asked, in the events' metadata. */
const BACKFILL = { requestId: 'provider-name-backfill', userId: null, projectId: null, roles: [] };
// Session-level, so two processes starting at once take turns and the second finds the marker.
const LOCK = "hashtext('placement: provider name backfill')";

/**
 * Gives the providers of a log written before the name streams existed their names, once:
 * the providers read model at its checkpoint, brought up to date by the log's tail after that
 * checkpoint (never the whole history), each name reserved unless its stream holds it already,
 * then a marker stream that says it was done. Idempotent and safe beside live writers (they
 * reserve their own names; a race on a name stream is decided again). An empty log needs
 * nothing, and gets no marker: an import refuses a log that is not empty.
 */
export async function backfillProviderNames(store: EventStore, db: Pool): Promise<BackfillResult | undefined> {
  if (await isDone(store)) return undefined;
  if ((await store.readAll(START, 1)).length === 0) return undefined;
  const session = await db.connect();
  try {
    await session.query(`SELECT pg_advisory_lock(${LOCK})`);
    if (await isDone(store)) return undefined;
    const providers = await currentNames(store, db);
    const result = await reserveAll(store, providers);
    const done: ProviderNamesBackfilled = { type: 'ProviderNamesBackfilled', data: { providers: providers.size, reserved: result.reserved, v: 1 } };
    await store.append([{ stream: PROVIDER_NAMES_BACKFILLED_STREAM, expectedRevision: NO_STREAM, events: [{ ...done, metadata: BACKFILL }] }]);
    return { providers: providers.size, ...result };
  } finally {
    await session.query(`SELECT pg_advisory_unlock(${LOCK})`).catch(() => undefined);
    session.release();
  }
}

const isDone = async (store: EventStore) => (await store.readStream(PROVIDER_NAMES_BACKFILLED_STREAM)).length > 0;

/** uuid -> name of every live provider: the read model as of its checkpoint, then the tail replayed over it. */
async function currentNames(store: EventStore, db: Pool): Promise<Map<string, string>> {
  const { rows: [checkpoint] } = await db.query<{ commit: string | null; position: string | null }>(
    "SELECT commit_xid::text AS commit, position::text AS position FROM rm_projection_checkpoints WHERE projection = 'providers'");
  // Rows are read after their checkpoint, so they are at or past it: replaying the tail's
  // absolute facts (created as, renamed to, deleted) over them ends at the log's state.
  const { rows } = await db.query<{ uuid: string; name: string }>('SELECT uuid, name FROM rm_resource_providers');
  const names = new Map(rows.map((row) => [row.uuid, row.name]));
  let from: LogPosition = checkpoint?.commit ? { commit: BigInt(checkpoint.commit), prepare: BigInt(checkpoint.position ?? 0) } : START;
  for (let page = await store.readAll(from, TAIL_PAGE); page.length > 0; page = await store.readAll(from, TAIL_PAGE)) {
    for (const event of page) applyNaming(names, event);
    from = page[page.length - 1].position;
  }
  return names;
}

function applyNaming(names: Map<string, string>, event: RecordedEvent): void {
  if (!event.stream.startsWith(PROVIDER)) return;
  const uuid = event.stream.slice(PROVIDER.length);
  const name = event.data.name;
  if ((event.type === 'ResourceProviderCreated' || event.type === 'ResourceProviderUpdated') && typeof name === 'string') names.set(uuid, name);
  else if (event.type === 'ResourceProviderDeleted') names.delete(uuid);
}

async function reserveAll(store: EventStore, providers: Map<string, string>): Promise<Omit<BackfillResult, 'providers'>> {
  // The path every command takes, over a cache of its own: a live writer taking or releasing one
  // of a batch's names meanwhile makes the batch be decided again on what the log holds.
  const runner = new CommandRunner(store, new DeciderStates(store));
  const entries = [...providers.entries()];
  let reserved = 0;
  const conflicts: string[] = [];
  for (let i = 0; i < entries.length; i += BATCH) {
    const batch = entries.slice(i, i + BATCH);
    const outcome = await runner.run(BACKFILL, (attempt) => reserveBatch(attempt, batch));
    reserved += outcome.reserved;
    conflicts.push(...outcome.taken);
  }
  return { reserved, conflicts };
}

/** Reserves each name of the batch for its provider; a name held by another, or named twice, is taken. */
async function reserveBatch(attempt: Attempt, batch: readonly (readonly [string, string])[]): Promise<{ reserved: number; taken: string[] }> {
  const names = unique(batch.map(([, name]) => name));
  const states = new Map(await Promise.all(names.map(async (name) => [name, await attempt.load(providerNameStream(name), providerNameDecider)] as const)));
  let reserved = 0;
  const taken: string[] = [];
  const seen = new Set<string>();
  for (const [uuid, name] of batch) {
    if (seen.has(name)) {
      taken.push(name);
      continue;
    }
    seen.add(name);
    try {
      const events = decideProviderName({ type: 'ReserveProviderName', name, uuid }, states.get(name)!);
      attempt.write(providerNameStream(name), events);
      if (events.length > 0) reserved++;
    } catch (error) {
      if (!(error instanceof ProviderNameTaken)) throw error;
      taken.push(name);
    }
  }
  return { reserved, taken };
}
