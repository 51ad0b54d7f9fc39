import type { Pool } from 'pg';
import {
  PROVIDER_NAMES_BACKFILLED_STREAM, ProviderNameEvent, ProviderNameState, ProviderNameTaken, ProviderNamesBackfilled, decideProviderName,
  evolveProviderName, initialProviderNameState, providerNameStream,
} from '#domain/index.js';
import {
  AppendRequest, EventStore, LogPosition, NO_STREAM, RecordedEvent, START, WrongExpectedRevision,
} from '#event-store/index.js';

export interface BackfillResult {
  readonly providers: number;
  readonly reserved: number;
  /** Names two providers of the old log both had: left to their first holder, reported. */
  readonly conflicts: readonly string[];
}

const PROVIDER = 'provider-';
const BATCH = 200;
const ATTEMPTS = 10;
const TAIL_PAGE = 1000;
const METADATA = { requestId: 'provider-name-backfill', userId: null, projectId: null, roles: [] };
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
    await store.append([{ stream: PROVIDER_NAMES_BACKFILLED_STREAM, expectedRevision: NO_STREAM, events: [{ ...done, metadata: METADATA }] }]);
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
  const entries = [...providers.entries()];
  let reserved = 0;
  const conflicts: string[] = [];
  for (let i = 0; i < entries.length; i += BATCH) {
    const batch = entries.slice(i, i + BATCH);
    for (let attempt = 1; ; attempt++) {
      const { appends, taken } = await planBatch(store, batch);
      try {
        if (appends.length > 0) await store.append(appends);
        reserved += appends.length;
        conflicts.push(...taken);
        break;
      } catch (error) {
        // A live writer took or released one of these names meanwhile: look again.
        if (!(error instanceof WrongExpectedRevision) || attempt >= ATTEMPTS) throw error;
      }
    }
  }
  return { reserved, conflicts };
}

async function planBatch(store: EventStore, batch: readonly (readonly [string, string])[]) {
  const appends: AppendRequest[] = [];
  const taken: string[] = [];
  const seen = new Set<string>();
  const loaded = await Promise.all(batch.map(([, name]) => loadName(store, name)));
  batch.forEach(([uuid, name], i) => {
    if (seen.has(name)) return void taken.push(name);
    seen.add(name);
    try {
      const events = decideProviderName({ type: 'ReserveProviderName', name, uuid }, loaded[i].state);
      const stream = providerNameStream(name);
      if (events.length > 0) appends.push({ stream, expectedRevision: loaded[i].revision, events: events.map((e) => ({ ...e, metadata: METADATA })) });
    } catch (error) {
      if (!(error instanceof ProviderNameTaken)) throw error;
      taken.push(name);
    }
  });
  return { appends, taken };
}

async function loadName(store: EventStore, name: string): Promise<{ state: ProviderNameState; revision: number }> {
  const events = await store.readStream(providerNameStream(name));
  const state = events.reduce((s, e) => evolveProviderName(s, { type: e.type, data: e.data } as ProviderNameEvent), initialProviderNameState());
  return { state, revision: events.length > 0 ? events[events.length - 1].revision : NO_STREAM };
}
