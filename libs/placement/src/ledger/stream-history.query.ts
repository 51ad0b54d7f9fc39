import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '#event-store/index.js';
import { LedgerEvent, toLedgerEvent } from './ledger-event.js';
import { revisionMarker } from './position-token.js';

export type HistoryOrder = 'asc' | 'desc';

export class GetStreamHistory {
  constructor(
    readonly stream: string,
    readonly order: HistoryOrder,
    readonly limit: number,
    /** The revision the previous page ended at; the page starts just past it. */
    readonly afterRevision?: number,
  ) {}
}

export interface StreamHistoryPage {
  readonly events: readonly LedgerEvent[];
  /** Where the next page starts, or null when this page reached the end. */
  readonly nextMarker: string | null;
}

/** One page of a stream, in revision order; null when the stream has never had an event. */
@QueryHandler(GetStreamHistory)
export class GetStreamHistoryHandler implements IQueryHandler<GetStreamHistory, StreamHistoryPage | null> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ stream, order, limit, afterRevision }: GetStreamHistory): Promise<StreamHistoryPage | null> {
    const backwards = order === 'desc';
    const fromRevision = afterRevision === undefined ? undefined : backwards ? afterRevision - 1 : afterRevision + 1;
    // One event more than asked tells whether another page exists without a second read.
    const rows = await this.store.readStreamRange(stream, { fromRevision, direction: backwards ? 'backwards' : 'forwards', limit: limit + 1 });
    if (rows.length === 0 && afterRevision === undefined) return null;
    const events = rows.slice(0, limit).map(toLedgerEvent);
    const nextMarker = rows.length > limit ? revisionMarker(events[events.length - 1].revision) : null;
    return { events, nextMarker };
  }
}
