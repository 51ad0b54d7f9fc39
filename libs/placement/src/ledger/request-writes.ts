import { ConsumerAllocations, consumerStream } from '#domain/consumer/index.js';
import { LedgerEvent } from './ledger-event.js';

const CONSUMER_PREFIX = consumerStream('');

/** What one request did to one consumer's allocations: the whole new set, or its removal. */
export type ConsumerWrite =
  | {
      readonly consumerUuid: string;
      readonly event: LedgerEvent;
      readonly removed: false;
      readonly allocations: ConsumerAllocations;
      readonly projectId: string;
      readonly userId: string;
      readonly consumerType: string | null;
      readonly generation: number;
    }
  | { readonly consumerUuid: string; readonly event: LedgerEvent; readonly removed: true; readonly generation: number };

/**
 * The allocations a request wrote, read off its consumer events (each carries the consumer's
 * whole set), in the order written. Provider-side events only mirror them and are skipped.
 */
export function allocationsWritten(events: readonly LedgerEvent[]): ConsumerWrite[] {
  const writes: ConsumerWrite[] = [];
  for (const event of events) {
    if (!event.stream.startsWith(CONSUMER_PREFIX)) continue;
    const consumerUuid = event.stream.slice(CONSUMER_PREFIX.length);
    const data = event.data as Record<string, any>;
    if (event.type === 'ConsumerRemoved') {
      writes.push({ consumerUuid, event, removed: true, generation: data.generation });
    } else if (event.type === 'ConsumerAllocationsReplaced') {
      writes.push({
        consumerUuid, event, removed: false, allocations: data.allocations, projectId: data.project_id,
        userId: data.user_id, consumerType: data.consumer_type ?? null, generation: data.generation,
      });
    }
  }
  return writes;
}
