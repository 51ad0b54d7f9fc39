import { ErrorType, FORWARDS } from '@kurrent/kurrentdb-client';
import { AppendRequest, AppendResult, LogPosition, RecordedEvent } from '../port.js';
import { REQUEST_INDEX_PREFIX, isIndexStream, toRecordedEvent } from './event-mapping.js';
import { KurrentClient } from './kurrent-client.js';
import { readAllAfter } from './log-reads.js';
import { toLogPosition, toReadPosition } from './positions.js';

/**
 * KurrentDB indexes no metadata, so the audit of one request would read all of $all. Instead,
 * every append whose events carry a request id writes, in the same session and ahead of them,
 * one event to that request's index stream saying how many of the session's events the request
 * wrote. A session's records lie together in the log, so the audit reads the index stream and,
 * from each of its events on, a few records of $all: the cost follows what the request wrote,
 * not the log's length. Index events are never handed out as ours (toRecordedEvent).
 */
const REQUEST_INDEX_TYPE = 'RequestAppended';
/** Records read past a session's expected end before reading on without a bound (needed only if a session's records were ever apart). */
const SLACK = 64;

/** The session to send: one index request per request id the events carry, ahead of the events themselves. */
export function withRequestIndex(requests: readonly AppendRequest[]): readonly AppendRequest[] {
  const counts = new Map<string, number>();
  for (const request of requests) {
    for (const event of request.events) {
      const id = event.metadata?.requestId;
      if (typeof id === 'string' && id !== '') counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  }
  if (counts.size === 0) return requests;
  const index = [...counts].map(([id, events]): AppendRequest => ({
    stream: REQUEST_INDEX_PREFIX + id, expectedRevision: 'any',
    events: [{ type: REQUEST_INDEX_TYPE, data: { events }, metadata: { requestId: id } }],
  }));
  return [...index, ...requests];
}

/** The append's result as the caller asked for it: the index streams' revisions (requests' and lookups') are the adapter's business. */
export function withoutIndexStreams(result: AppendResult): AppendResult {
  const revisions = Object.fromEntries(Object.entries(result.revisions).filter(([stream]) => !isIndexStream(stream)));
  return { ...result, revisions };
}

/** Every event the request wrote, in the log's order. */
export async function readRequest(client: KurrentClient, requestId: string): Promise<RecordedEvent[]> {
  const wrote = (event: RecordedEvent) => event.metadata.requestId === requestId;
  const found: RecordedEvent[] = [];
  for (const entry of await indexEntries(client, requestId)) {
    const session: RecordedEvent[] = [];
    // KurrentDB reads $all from a position inclusively: the index event comes first, and is not ours.
    for await (const resolved of client.readAll({ fromPosition: toReadPosition(entry.at), maxCount: entry.events + SLACK, direction: FORWARDS })) {
      const recorded = resolved.event && toRecordedEvent(resolved.event);
      if (recorded && wrote(recorded)) session.push(recorded);
      if (session.length === entry.events) break;
    }
    if (session.length < entry.events) {
      session.push(...await readAllAfter(client, session.at(-1)?.position ?? entry.at, entry.events - session.length, {}, wrote));
    }
    found.push(...session);
  }
  return found;
}

/** Where each of the request's sessions starts in the log, and how many of its events are the request's. */
async function indexEntries(client: KurrentClient, requestId: string): Promise<{ at: LogPosition; events: number }[]> {
  const entries: { at: LogPosition; events: number }[] = [];
  try {
    for await (const { event } of client.readStream(REQUEST_INDEX_PREFIX + requestId, { direction: FORWARDS })) {
      const events = Number((event?.data as { events?: unknown } | undefined)?.events);
      if (event?.position && Number.isSafeInteger(events) && events > 0) entries.push({ at: toLogPosition(event.position), events });
    }
  } catch (error) {
    if ((error as { type?: unknown } | null)?.type === ErrorType.STREAM_NOT_FOUND) return entries;
    throw error;
  }
  return entries;
}
