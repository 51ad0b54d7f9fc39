import { RecordedEvent } from '../port.js';

export function toRecordedEvent(row: Record<string, any>): RecordedEvent {
  return {
    stream: row.stream_id,
    revision: Number(row.revision),
    position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.position) },
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at,
  };
}
