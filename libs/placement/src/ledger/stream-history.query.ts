import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { READ_DB, ReadDb } from '../shared/read-db.js';
import { LEDGER_EVENT_COLUMNS, LedgerEvent, toLedgerEvent } from './ledger-event.js';
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
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  async execute({ stream, order, limit, afterRevision }: GetStreamHistory): Promise<StreamHistoryPage | null> {
    const params: unknown[] = [stream, limit + 1];
    const past = afterRevision === undefined ? '' : `AND e.revision ${order === 'asc' ? '>' : '<'} $${params.push(afterRevision)}`;
    // One row more than asked tells whether another page exists without a second query.
    const { rows } = await this.db.query(
      `SELECT ${LEDGER_EVENT_COLUMNS} FROM es_events e
        WHERE e.stream_id = $1 ${past}
        ORDER BY e.revision ${order === 'asc' ? 'ASC' : 'DESC'} LIMIT $2`,
      params,
    );
    if (rows.length === 0 && afterRevision === undefined) return null;
    const events = rows.slice(0, limit).map(toLedgerEvent);
    const nextMarker = rows.length > limit ? revisionMarker(events[events.length - 1].revision) : null;
    return { events, nextMarker };
  }
}
