import { RecordedEvent } from '../port.js';

/** The columns toRecordedEvent reads, for SELECTs over es_events (unqualified). */
export const EVENT_COLUMNS = `position, transaction_id, stream_id, revision, type, data, metadata, recorded_at,
  (extract(epoch FROM recorded_at) * 1000000)::int8::text AS recorded_us`;

export function toRecordedEvent(row: Record<string, any>): RecordedEvent {
  return {
    stream: row.stream_id,
    revision: Number(row.revision),
    position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.position) },
    type: row.type,
    data: row.data,
    metadata: row.metadata ?? {},
    recordedAt: row.recorded_at,
    // pg parses timestamptz into a Date, which keeps milliseconds; the log keeps microseconds.
    ...(row.recorded_us == null ? {} : { recordedAtMicros: BigInt(row.recorded_us) }),
  };
}
