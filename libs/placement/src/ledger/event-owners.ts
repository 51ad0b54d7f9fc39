import { Inject, Injectable } from '@nestjs/common';
import { consumerStream } from '#domain/consumer/index.js';
import { comparePositions, EVENT_STORE, EventStore, LogPosition, RecordedEvent } from '#event-store/index.js';
import { LedgerEvent } from './ledger-event.js';
import { mapLimited, STREAMS_AT_ONCE } from './map-limited.js';

/** The project and user a consumer belonged to when an event was written. */
export interface EventOwner {
  readonly projectId: string;
  readonly userId: string | null;
}

const CONSUMER_PREFIX = consumerStream('');

/** How far back a removal looks for the claim it undid: a removal always follows one. */
const LOOK_BACK = 8;
/** A consumer's newest events read to learn who owned it when a provider's event named it. */
const HOLDER_LOOK_BACK = 100;

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

/** The consumers a provider's event names: those whose holding on it the event sets. */
export function holdersNamed(event: Pick<LedgerEvent, 'type' | 'data'>): string[] {
  return event.type === 'ProviderAllocationsChanged' ? Object.keys((event.data as { consumers: object }).consumers) : [];
}

/**
 * Who owned a consumer at a point of the log, from a run of its newest events: the claim in
 * force then (a claim writes its consumer's event before its providers'), or, where none is so
 * early, its first claim, when the run reaches back to the stream's start (an import writes the
 * providers before their consumers). Where the run does not reach back so far, nobody known.
 */
export function ownerAt(run: readonly Pick<RecordedEvent, 'stream' | 'type' | 'data' | 'revision' | 'position'>[], at: LogPosition): EventOwner | null {
  let before: { position: LogPosition; owner: EventOwner } | undefined;
  let after: { position: LogPosition; owner: EventOwner } | undefined;
  for (const event of run) {
    const owner = statedOwner(event);
    if (!owner) continue;
    // Compared by position, not by revision: a stream's revisions may differ from the global order.
    if (comparePositions(event.position, at) <= 0) {
      if (!before || comparePositions(event.position, before.position) > 0) before = { position: event.position, owner };
    } else if (!after || comparePositions(event.position, after.position) < 0) {
      after = { position: event.position, owner };
    }
  }
  if (before) return before.owner;
  return run.some((event) => event.revision === 0) ? after?.owner ?? null : null;
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

  /**
   * Who owned each consumer the events name (holdersNamed) when each event was written
   * (ownerAt): each consumer's newest events are read once, a few streams at a time.
   */
  async holdersOf(events: readonly LedgerEvent[]): Promise<(event: LedgerEvent, consumer: string) => EventOwner | null> {
    const consumers = [...new Set(events.flatMap(holdersNamed))];
    const runs = await mapLimited(consumers, STREAMS_AT_ONCE,
      (uuid) => this.store.readStreamRange(consumerStream(uuid), { direction: 'backwards', limit: HOLDER_LOOK_BACK }));
    const byConsumer = new Map(consumers.map((uuid, i) => [uuid, runs[i]]));
    return (event, consumer) => ownerAt(byConsumer.get(consumer) ?? [], event.position);
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
