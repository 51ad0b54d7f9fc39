import type { EventMetadata, LogPosition } from '../../../event-store/src/index.js';
import { positionToken } from './position-token.js';

/** One stored event as the ledger endpoints read it; `time` keeps PostgreSQL's microseconds. */
export interface LedgerEvent {
  readonly stream: string;
  readonly revision: number;
  readonly position: LogPosition;
  /** RFC 3339, UTC, microseconds: fed back as as_of it includes this very event. */
  readonly time: string;
  readonly type: string;
  readonly data: Readonly<Record<string, unknown>>;
  readonly metadata: EventMetadata;
}

/** The stored row columns, for SELECTs over es_events aliased `e`. */
export const LEDGER_EVENT_COLUMNS = `e.position::text AS prepare, e.transaction_id::text AS commit, e.stream_id, e.revision, e.type,
  e.data, e.metadata, to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS time`;

export function toLedgerEvent(row: Record<string, any>): LedgerEvent {
  return {
    stream: row.stream_id,
    revision: Number(row.revision),
    position: { commit: BigInt(row.commit), prepare: BigInt(row.prepare) },
    time: row.time,
    type: row.type,
    data: row.data,
    metadata: row.metadata ?? {},
  };
}

/**
 * An event as clients see it: where it sits, when, what it changed, the generation it produced
 * (null for streams without one: classes and traits) and who asked for it.
 */
export function presentLedgerEvent(event: LedgerEvent) {
  const { requestId, userId, projectId, roles, operation } = event.metadata;
  const generation = event.data.generation;
  return {
    position: positionToken(event.position),
    stream: event.stream,
    revision: event.revision,
    time: event.time,
    type: event.type,
    data: event.data,
    generation: typeof generation === 'number' ? generation : null,
    request_id: requestId ?? null,
    user_id: userId ?? null,
    project_id: projectId ?? null,
    roles: roles ?? [],
    // Only where a write was asked for otherwise than its event type says (a merge patch claims as a PUT).
    ...(typeof operation === 'string' ? { operation } : {}),
  };
}

export type PresentedLedgerEvent = ReturnType<typeof presentLedgerEvent>;
