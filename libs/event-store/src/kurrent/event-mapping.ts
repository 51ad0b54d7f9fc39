import { jsonEvent, type RecordedEvent as ClientRecordedEvent } from '@kurrent/kurrentdb-client';
import { NewEvent, RecordedEvent } from '../port.js';
import { decodeMetadata, encodeMetadata } from './metadata-codec.js';
import { toLogPosition } from './positions.js';

export function toEventData(event: NewEvent) {
  return jsonEvent({ type: event.type, data: event.data as Record<string, unknown>, metadata: encodeMetadata(event.metadata) });
}

/** '$'-prefixed streams and types are the server's own ($metadata, $> links, $projections-…, $scavenges). */
export function isSystemEvent(event: { readonly streamId: string; readonly type: string }): boolean {
  return event.streamId.startsWith('$') || event.type.startsWith('$');
}

/** Where the adapter indexes each request's appends (request-index.ts): bookkeeping, not a Placement event. */
export const REQUEST_INDEX_PREFIX = 'placement-request-';
/** Where the adapter indexes the stream lookups (lookup-index.ts): bookkeeping too. */
export const LOOKUP_INDEX_PREFIX = 'placement-lookup-';

/** A stream of the adapter's own indexes, never handed out through the port. */
export const isIndexStream = (stream: string) => stream.startsWith(REQUEST_INDEX_PREFIX) || stream.startsWith(LOOKUP_INDEX_PREFIX);

/**
 * Maps a stored event to the port's shape, or undefined for what is not one of ours: a system
 * event, the adapter's request and lookup indexes, or another application's event in the same database
 * whose data is not a JSON object.
 */
export function toRecordedEvent(event: ClientRecordedEvent): RecordedEvent | undefined {
  if (isSystemEvent(event) || isIndexStream(event.streamId)) return undefined;
  const data = jsonObject(event.data);
  if (data === undefined) return undefined;
  if (!event.position) throw new Error(`KurrentDB returned event ${event.streamId}@${event.revision} without its log position`);
  return {
    stream: event.streamId,
    revision: Number(event.revision),
    position: toLogPosition(event.position),
    type: event.type,
    data,
    metadata: decodeMetadata(event.metadata),
    recordedAt: event.created,
  };
}

/** JSON events arrive parsed; bytes are parsed here in case a server labels JSON records as binary. */
function jsonObject(data: unknown): Record<string, unknown> | undefined {
  let value = data;
  if (value instanceof Uint8Array) {
    try {
      value = JSON.parse(Buffer.from(value).toString('utf8'));
    } catch {
      return undefined;
    }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
