import type { Pool, PoolClient } from 'pg';
import { RecordedEvent } from '../port.js';
import { statementName } from './prepared.js';

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

/**
 * The columns queryEvents reads, in its order. The time comes as microseconds since the epoch
 * only: parsing a timestamptz's text into a Date, and a row into an object, cost more than the
 * rest of the row on a replay of millions of events.
 */
export const READ_COLUMNS = `transaction_id::text, position::text, stream_id, revision, type, data, metadata,
  (extract(epoch FROM recorded_at) * 1000000)::int8::text`;
/** READ_COLUMNS with `metadata` (an SQL expression) read in the metadata column's place. */
export function readColumnsWithMetadata(metadata: string): string {
  if (!READ_COLUMNS.includes(', metadata,')) throw new Error('READ_COLUMNS no longer reads the metadata column where readColumnsWithMetadata expects it');
  return READ_COLUMNS.replace(', metadata,', `, ${metadata},`);
}
/** READ_COLUMNS without the metadata (GlobalFilter.metadata === false). */
export const READ_COLUMNS_NO_METADATA = readColumnsWithMetadata('NULL');
const NO_METADATA = Object.freeze({});

/** A row of READ_COLUMNS (rowMode 'array') as an event. */
export function fromArrayRow(row: unknown[]): RecordedEvent {
  const micros = row[7] as string;
  return {
    stream: row[2] as string,
    revision: Number(row[3]),
    position: { commit: BigInt(row[0] as string), prepare: BigInt(row[1] as string) },
    type: row[4] as string,
    data: row[5] as Record<string, unknown>,
    metadata: (row[6] as RecordedEvent['metadata'] | null) ?? NO_METADATA,
    recordedAt: new Date(Number(micros) / 1000),
    recordedAtMicros: BigInt(micros),
  };
}

/**
 * A statement selecting READ_COLUMNS from es_events, its rows as events. Named, so each
 * connection plans it once: the texts are built from fixed parts and placeholders only, a few
 * shapes per read, and planning the global order's reads cost more than running them.
 */
export async function queryEvents(db: Pool | PoolClient, text: string, values: unknown[]): Promise<RecordedEvent[]> {
  const { rows } = await db.query<unknown[]>({ name: statementName(text), text, values, rowMode: 'array' });
  return rows.map(fromArrayRow);
}
