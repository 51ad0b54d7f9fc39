import { EventMetadata, LogPosition, RecordedEvent, recordedMicros } from '#event-store/index.js';
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

/** The port's event as the ledger shows it: the time with every microsecond its store kept. */
export function toLedgerEvent(event: RecordedEvent): LedgerEvent {
  return {
    stream: event.stream,
    revision: event.revision,
    position: event.position,
    time: formatMicros(recordedMicros(event)),
    type: event.type,
    data: event.data,
    metadata: event.metadata ?? {},
  };
}

/**
 * RFC 3339 in UTC with six fractional digits. A time shown with fewer digits than stored would,
 * fed back as as_of, fall before its own event.
 */
export function formatMicros(micros: bigint): string {
  let ms = micros / 1000n;
  let rest = micros % 1000n;
  if (rest < 0n) { rest += 1000n; ms -= 1n; }
  return `${new Date(Number(ms)).toISOString().slice(0, -1)}${rest.toString().padStart(3, '0')}Z`;
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
