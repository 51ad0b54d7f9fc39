import { Inject, Injectable } from '@nestjs/common';
import { consumerStream } from '#domain/consumer/index.js';
import { EVENT_STORE, EventStore } from '#event-store/index.js';
import { LedgerEvent } from './ledger-event.js';

/** The project and user a consumer belonged to when an event was written. */
export interface EventOwner {
  readonly projectId: string;
  readonly userId: string | null;
}

const CONSUMER_PREFIX = consumerStream('');

/** How far back a removal looks for the claim it undid: a removal always follows one. */
const LOOK_BACK = 8;

/**
 * The owner an event states itself: a consumer's claim names its project and user. A removal
 * names nobody (undefined: ask the claim before it); everything else, providers, classes,
 * traits and the mark of an import, belongs to no project (null).
 */
export function statedOwner(event: Pick<LedgerEvent, 'stream' | 'type' | 'data'>): EventOwner | null | undefined {
  if (!event.stream.startsWith(CONSUMER_PREFIX)) return null;
  if (event.type === 'ConsumerRemoved') return undefined;
  if (event.type !== 'ConsumerAllocationsReplaced') return null;
  const data = event.data as { project_id?: unknown; user_id?: unknown };
  return typeof data.project_id === 'string' ? { projectId: data.project_id, userId: typeof data.user_id === 'string' ? data.user_id : null } : null;
}

/**
 * Who owned the data each event shows, for judging it against a policy rule: the event's own
 * claim, or for a removal the claim it removed, read back through the event store port.
 */
@Injectable()
export class EventOwners {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async of(events: readonly LedgerEvent[]): Promise<Map<LedgerEvent, EventOwner | null>> {
    const owners = new Map<LedgerEvent, EventOwner | null>();
    const claims = new Map<string, EventOwner>();
    for (const event of events) {
      const stated = statedOwner(event);
      if (stated === undefined) continue;
      owners.set(event, stated);
      if (stated) claims.set(`${event.stream}#${event.revision}`, stated);
    }
    for (const event of events) {
      if (!owners.has(event)) owners.set(event, claims.get(`${event.stream}#${event.revision - 1}`) ?? await this.ownerBefore(event));
    }
    return owners;
  }

  /** Who owns a stream's data now, or last did: its newest claim's owner; null for a stream never claimed. */
  async latest(stream: string): Promise<EventOwner | null> {
    const recent = await this.store.readStreamRange(stream, { direction: 'backwards', limit: LOOK_BACK });
    for (const event of recent) {
      const stated = statedOwner(event);
      if (stated) return stated;
    }
    return null;
  }

  private async ownerBefore(event: LedgerEvent): Promise<EventOwner | null> {
    if (event.revision === 0) return null;
    const earlier = await this.store.readStreamRange(event.stream, { fromRevision: event.revision - 1, direction: 'backwards', limit: LOOK_BACK });
    for (const found of earlier) {
      const stated = statedOwner(found);
      if (stated) return stated;
    }
    return null;
  }
}
