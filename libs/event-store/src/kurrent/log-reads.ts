import { BACKWARDS, END, ErrorType, FORWARDS, START as CLIENT_START, eventTypeFilter, excludeSystemEvents } from '@kurrent/kurrentdb-client';
import {
  GlobalFilter, LogPosition, RecordedEvent, START, StreamLookup, StreamRange, comparePositions, isAtOrBefore,
} from '../port.js';
import { toRecordedEvent } from './event-mapping.js';
import { KurrentClient } from './kurrent-client.js';
import { toLogPosition, toReadPosition } from './positions.js';

/**
 * Part of one stream. A bound ends a forwards read at the first event past it (see
 * StreamRange.until); backwards with a bound, the run from revision 0 is read and turned round.
 */
export async function readStreamRange(client: KurrentClient, stream: string, range: StreamRange): Promise<RecordedEvent[]> {
  const backwards = range.direction === 'backwards';
  const limit = range.limit ?? Number.MAX_SAFE_INTEGER;
  if (limit <= 0 || (backwards && range.fromRevision !== undefined && range.fromRevision < 0)) return [];
  if (backwards && range.until) {
    const run = await readStreamRange(client, stream, { until: range.until });
    const last = range.fromRevision ?? Number.MAX_SAFE_INTEGER;
    return run.filter((event) => event.revision <= last).reverse().slice(0, limit);
  }
  const fromRevision = range.fromRevision !== undefined ? BigInt(Math.max(0, range.fromRevision)) : backwards ? END : CLIENT_START;
  const events: RecordedEvent[] = [];
  try {
    // Without a bound, the server stops at the limit; with one, reading stops at the bound.
    const read = client.readStream(stream, { fromRevision, direction: backwards ? BACKWARDS : FORWARDS, ...(range.until ? {} : { maxCount: limit }) });
    for await (const resolved of read) {
      const recorded = resolved.event && toRecordedEvent(resolved.event);
      if (!recorded) continue;
      if (range.until && !isAtOrBefore(recorded, range.until)) break;
      events.push(recorded);
      if (events.length >= limit) break;
    }
  } catch (error) {
    if ((error as { type?: unknown } | null)?.type === ErrorType.STREAM_NOT_FOUND) return [];
    throw error;
  }
  return events;
}

/**
 * KurrentDB reads $all from a position inclusively, and the port reads strictly after it:
 * the event at `from` comes back and is dropped. Event types are filtered by the server (which
 * leaves out its own '$' types too); system streams, foreign events and the rest of the filter
 * are dropped here, so a page can come back short, and reading goes on until `limit` events or
 * the end of the log (or past a position bound). The log is written in order, so no event can
 * appear later behind a position already read.
 */
export async function readAllAfter(
  client: KurrentClient, from: LogPosition, limit: number, filter: GlobalFilter = {},
  keep: (event: RecordedEvent) => boolean = () => true,
): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  const serverFilter = filter.types ? eventTypeFilter({ regex: `^(${filter.types.map(escapeRegex).join('|')})$` }) : excludeSystemEvents();
  const until = filter.until;
  let cursor = from;
  while (events.length < limit) {
    const asked = Math.min(limit - events.length + 1, 4096);
    let returned = 0;
    let advanced = false;
    for await (const resolved of client.readAll({ fromPosition: toReadPosition(cursor), maxCount: asked, direction: FORWARDS, filter: serverFilter })) {
      returned++;
      const event = resolved.event;
      if (!event?.position) continue;
      const at = toLogPosition(event.position);
      if (comparePositions(at, cursor) <= 0) continue;
      if (until && 'position' in until && comparePositions(at, until.position) > 0) return events;
      cursor = at;
      advanced = true;
      const recorded = toRecordedEvent(event);
      if (!recorded || (until && !isAtOrBefore(recorded, until)) || !keep(recorded)) continue;
      if (events.length < limit) events.push(filter.metadata === false ? { ...recorded, metadata: {} } : recorded);
    }
    if (returned < asked || !advanced) break;
  }
  return events;
}

/** The last of our events in $all: every acknowledged append is readable at once, none is in flight. */
export async function readHead(client: KurrentClient): Promise<LogPosition> {
  for await (const resolved of client.readAll({ fromPosition: END, direction: BACKWARDS, filter: excludeSystemEvents() })) {
    const recorded = resolved.event && toRecordedEvent(resolved.event);
    if (recorded) return recorded.position;
  }
  return START;
}

/**
 * KurrentDB keeps no count of $all: the events are read and counted, without keeping them
 * (status and a replay's progress ask this, never a request).
 */
export async function countEvents(client: KurrentClient, after: LogPosition, until?: LogPosition): Promise<number> {
  let counted = 0;
  await readAllAfter(client, after, Number.MAX_SAFE_INTEGER, until ? { until: { position: until } } : {}, () => {
    counted++;
    return false;
  });
  return counted;
}

/**
 * A lookup no index answers (lookup-index.ts answers INDEXED_LOOKUPS): a read of $all filtered by
 * event type on the server (the server still walks the whole log to filter it; only the lookup's
 * types reach us), with the field checked here. Its cost follows the log's length: an operator's
 * question or a spec's, never a request's.
 */
export async function streamsWith(client: KurrentClient, lookup: StreamLookup): Promise<string[]> {
  const found = new Set<string>();
  if (lookup.types.length === 0) return [];
  const has = (value: unknown) => value === lookup.value || (Array.isArray(value) && value.includes(lookup.value));
  await readAllAfter(client, START, Number.MAX_SAFE_INTEGER, { types: lookup.types, ...(lookup.until ? { until: lookup.until } : {}), metadata: false }, (event) => {
    if (has(event.data[lookup.field])) found.add(event.stream);
    return false;
  });
  return [...found];
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
