import { LedgerEvent } from './ledger-event.js';

/** Builds a stream's events for the ledger's specs: positions and times follow the order given. */
export function streamOf(stream: string, events: readonly { type: string; data: Record<string, unknown>; requestId?: string }[], start = 1): LedgerEvent[] {
  return events.map((event, index) => ({
    stream,
    revision: index,
    position: { commit: BigInt(100 + start + index), prepare: BigInt(start + index) },
    time: `2024-03-01T10:00:${String(start + index).padStart(2, '0')}.000000Z`,
    type: event.type,
    data: { ...event.data, v: 1 },
    metadata: { requestId: event.requestId ?? `req-${start + index}`, userId: 'u', projectId: 'p', roles: ['admin'] },
  }));
}
