import { BACKWARDS, ErrorType, END } from '@kurrent/kurrentdb-client';
import { IndexedLookup, valuesAt } from '../indexed-lookups.js';
import { AppendRequest, LogPosition, NewEvent, START, comparePositions, recordedMicros } from '../port.js';
import { toAppendStreamRequests } from './append-mapping.js';
import { LOOKUP_INDEX_PREFIX } from './event-mapping.js';
import { KurrentClient } from './kurrent-client.js';
import { readAllAfter, readHead } from './log-reads.js';
import { EntryData, LOOKUP_INDEX_TYPE, lookupStream } from './lookup-index.js';

/** Where each backfill notes the head it indexed up to; the next one starts there. */
const BACKFILL_STREAM = `${LOOKUP_INDEX_PREFIX}backfill`;
const BACKFILL_TYPE = 'LookupIndexBackfilled';
/** Entries per session. */
const BATCH = 1000;

export interface BackfillResult {
  /** Read strictly after this position (START the first time)… */
  readonly from: LogPosition;
  /** …up to this one, the head when the backfill began. */
  readonly upTo: LogPosition;
  readonly entries: number;
}

/**
 * Index entries for the events of a log written before the adapter indexed the lookups (or by a
 * server still on such a build): one read of $all, filtered by the lookups' types on the server,
 * from where the last backfill stopped to the head. A lookup needs only each stream's first match
 * per type and value, so only those get an entry, carrying the event's exact position and time
 * (lookup-index.ts sorts on them). An event that already has an entry gets a second one, which
 * changes no answer: running it again is safe.
 */
export async function backfillLookupIndex(client: KurrentClient, lookups: readonly IndexedLookup[]): Promise<BackfillResult> {
  const from = await lastBackfill(client);
  const upTo = await readHead(client);
  const firsts = new Map<string, NewEvent & { stream: string }>();
  const types = [...new Set(lookups.flatMap((lookup) => lookup.types))];
  if (comparePositions(from, upTo) < 0) {
    await readAllAfter(client, from, Number.MAX_SAFE_INTEGER, { types, until: { position: upTo }, metadata: false }, (event) => {
      for (const { name, types: indexed, field } of lookups) {
        if (!indexed.includes(event.type)) continue;
        for (const value of valuesAt(event.data, field)) {
          const key = JSON.stringify([name, value, event.stream, event.type]);
          if (firsts.has(key)) continue;
          const data: EntryData = {
            stream: event.stream, type: event.type, value, revision: event.revision,
            at: { commit: String(event.position.commit), prepare: String(event.position.prepare) }, micros: String(recordedMicros(event)),
          };
          firsts.set(key, { stream: lookupStream(name, value), type: LOOKUP_INDEX_TYPE, data });
        }
      }
      return false;
    });
  }
  const entries = [...firsts.values()];
  for (let i = 0; i < entries.length; i += BATCH) await appendGrouped(client, entries.slice(i, i + BATCH));
  const marker = { type: BACKFILL_TYPE, data: { upTo: { commit: String(upTo.commit), prepare: String(upTo.prepare) }, entries: entries.length } };
  await client.multiStreamAppend(toAppendStreamRequests([{ stream: BACKFILL_STREAM, expectedRevision: 'any', events: [marker] }]));
  return { from, upTo, entries: entries.length };
}

/** One session, one request per index stream (a session names each stream once). */
async function appendGrouped(client: KurrentClient, entries: readonly (NewEvent & { stream: string })[]): Promise<void> {
  const byStream = new Map<string, NewEvent[]>();
  for (const { stream, ...event } of entries) byStream.set(stream, [...(byStream.get(stream) ?? []), event]);
  const requests = [...byStream].map(([stream, events]): AppendRequest => ({ stream, expectedRevision: 'any', events }));
  await client.multiStreamAppend(toAppendStreamRequests(requests));
}

async function lastBackfill(client: KurrentClient): Promise<LogPosition> {
  try {
    for await (const { event } of client.readStream(BACKFILL_STREAM, { fromRevision: END, direction: BACKWARDS, maxCount: 1 })) {
      const upTo = (event?.data as { upTo?: { commit?: unknown; prepare?: unknown } } | undefined)?.upTo;
      if (typeof upTo?.commit === 'string' && typeof upTo.prepare === 'string') return { commit: BigInt(upTo.commit), prepare: BigInt(upTo.prepare) };
    }
  } catch (error) {
    if ((error as { type?: unknown } | null)?.type !== ErrorType.STREAM_NOT_FOUND) throw error;
  }
  return START;
}
