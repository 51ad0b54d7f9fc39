import { ErrorType, FORWARDS, type RecordedEvent as ClientRecordedEvent } from '@kurrent/kurrentdb-client';
import { IndexedLookup, indexFor, valuesAt } from '../indexed-lookups.js';
import { AppendRequest, LogPoint, LogPosition, NewEvent, StreamLookup, comparePositions, isAtOrBefore } from '../port.js';
import { LOOKUP_INDEX_PREFIX, toRecordedEvent } from './event-mapping.js';
import { KurrentClient } from './kurrent-client.js';
import { toLogPosition } from './positions.js';

/**
 * KurrentDB indexes no event data, so a lookup would read all of $all. Instead, every append
 * holding an event of an indexed lookup (INDEXED_LOOKUPS) writes, in the same session and ahead
 * of the events, one entry per value to that value's index stream: which stream, which type, and
 * the revision when the append fixes it. A session's records lie together in the log, so an
 * entry sits just before its event: reading the value's index stream answers the lookup, and a
 * bound needs at most a few events read to settle the session it falls in. Entries a backfill
 * wrote (lookup-backfill.ts) carry their event's exact position and time instead.
 */
export const LOOKUP_INDEX_TYPE = 'LookupMatched';

/**
 * A value's index stream. The server compares a session's stream names without case, so values
 * differing only in case share one stream; each entry keeps its value.
 */
export const lookupStream = (name: string, value: string) => `${LOOKUP_INDEX_PREFIX}${name}-${value.toLowerCase()}`;

/** What an entry holds: `at` and `micros` (decimal strings) only when a backfill wrote it. */
export interface EntryData {
  readonly stream: string;
  readonly type: string;
  readonly value: string;
  readonly revision?: number;
  readonly at?: { readonly commit: string; readonly prepare: string };
  readonly micros?: string;
}

/** The session to send: the lookups' index entries of the events, ahead of everything else. */
export function withLookupIndex(requests: readonly AppendRequest[], lookups: readonly IndexedLookup[]): readonly AppendRequest[] {
  const entries = new Map<string, NewEvent[]>();
  for (const request of requests) {
    // An expected revision n (-1: none yet) puts the request's events at n+1, n+2, …; 'any' fixes none.
    const first = typeof request.expectedRevision === 'number' ? request.expectedRevision + 1 : undefined;
    request.events.forEach((event, i) => {
      for (const { name, types, field } of lookups) {
        if (!types.includes(event.type)) continue;
        for (const value of valuesAt(event.data as Record<string, unknown>, field)) {
          const data: EntryData = { stream: request.stream, type: event.type, value, ...(first === undefined ? {} : { revision: first + i }) };
          const stream = lookupStream(name, value);
          entries.set(stream, [...(entries.get(stream) ?? []), { type: LOOKUP_INDEX_TYPE, data }]);
        }
      }
    });
  }
  if (entries.size === 0) return requests;
  return [...[...entries].map(([stream, events]): AppendRequest => ({ stream, expectedRevision: 'any', events })), ...requests];
}

interface Entry extends EntryData {
  /** The event's position (exact), or its entry's, just before it in the same session. */
  readonly position: LogPosition;
  /** The event's time (exact), or its entry's, at or before it. */
  readonly time: bigint;
  readonly exact: boolean;
}

/**
 * The streams of an indexed lookup, in the order of their first match; undefined when no index
 * answers it. Only the value's index stream is read, and with a bound, the first matching event
 * of the last candidates until one is at or before it (only a session the bound falls inside can
 * hold candidates past it, and the log's order makes the rest a prefix).
 */
export async function indexedStreamsWith(client: KurrentClient, lookups: readonly IndexedLookup[], lookup: StreamLookup): Promise<string[] | undefined> {
  const index = indexFor(lookups, lookup);
  if (!index) return undefined;
  const until = lookup.until;
  const entries = (await readEntries(client, lookupStream(index.name, lookup.value)))
    .filter((entry) => entry.value === lookup.value && lookup.types.includes(entry.type) && (!until || mayBeAtOrBefore(entry, until)))
    .sort((a, b) => comparePositions(a.position, b.position));
  const seen = new Set<string>();
  const firsts = entries.filter((entry) => !seen.has(entry.stream) && seen.add(entry.stream));
  let end = firsts.length;
  while (until && end > 0 && !(firsts[end - 1].exact || await firstMatchIsAtOrBefore(client, lookup, firsts[end - 1], until))) end--;
  return firsts.slice(0, end).map((entry) => entry.stream);
}

const mayBeAtOrBefore = (entry: Entry, until: LogPoint) =>
  'position' in until ? comparePositions(entry.position, until.position) <= 0 : entry.time <= until.time;

/** The stream's first event the lookup matches, from the entry's revision when it has one, checked against the bound. */
async function firstMatchIsAtOrBefore(client: KurrentClient, lookup: StreamLookup, entry: Entry, until: LogPoint): Promise<boolean> {
  try {
    for await (const resolved of client.readStream(entry.stream, { fromRevision: BigInt(entry.revision ?? 0), direction: FORWARDS })) {
      const event = resolved.event && toRecordedEvent(resolved.event);
      if (event && lookup.types.includes(event.type) && valuesAt(event.data, lookup.field).includes(lookup.value)) return isAtOrBefore(event, until);
    }
  } catch (error) {
    if ((error as { type?: unknown } | null)?.type !== ErrorType.STREAM_NOT_FOUND) throw error;
  }
  return false;
}

async function readEntries(client: KurrentClient, stream: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  try {
    for await (const { event } of client.readStream(stream, { direction: FORWARDS })) {
      const entry = event && toEntry(event);
      if (entry) entries.push(entry);
    }
  } catch (error) {
    if ((error as { type?: unknown } | null)?.type === ErrorType.STREAM_NOT_FOUND) return entries;
    throw error;
  }
  return entries;
}

function toEntry(event: ClientRecordedEvent): Entry | undefined {
  const data = event.data as Partial<EntryData> | undefined;
  if (event.type !== LOOKUP_INDEX_TYPE || !event.position || typeof data?.stream !== 'string' || typeof data.type !== 'string' || typeof data.value !== 'string') {
    return undefined;
  }
  const entry = { stream: data.stream, type: data.type, value: data.value, ...(Number.isSafeInteger(data.revision) ? { revision: data.revision } : {}) };
  if (data.at && data.micros) {
    return { ...entry, position: { commit: BigInt(data.at.commit), prepare: BigInt(data.at.prepare) }, time: BigInt(data.micros), exact: true };
  }
  return { ...entry, position: toLogPosition(event.position), time: BigInt(event.created.getTime()) * 1000n, exact: false };
}
