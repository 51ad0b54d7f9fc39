import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore, LogPosition, RecordedEvent } from '../../../event-store/src/index.js';
import { READ_DB, ReadDb } from '../shared/read-db.js';
import { LedgerEvent } from './ledger-event.js';

export interface WaitOptions {
  /** Give up (answer nothing) at this Date.now(). */
  readonly until: number;
  /** Asked between polls: true ends the wait at once (the client left, the server is draining). */
  readonly stopped: () => boolean;
  readonly pollMs?: number;
}

/**
 * The global feed, in the store's gap-free order: a page read never skips an event whose
 * transaction commits after a later-numbered one, so a client resuming from the last
 * position it saw misses nothing.
 */
@Injectable()
export class LedgerFeed {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore, @Inject(READ_DB) private readonly db: ReadDb) {}

  async page(after: LogPosition, limit: number): Promise<LedgerEvent[]> {
    return this.withExactTimes(await this.store.readAll(after, limit));
  }

  /** The first non-empty page after `after`, polling until one appears or the wait ends (then []). */
  async waitForPage(after: LogPosition, limit: number, options: WaitOptions): Promise<LedgerEvent[]> {
    const pollMs = options.pollMs ?? 100;
    for (;;) {
      const events = await this.page(after, limit);
      const left = options.until - Date.now();
      if (events.length > 0 || options.stopped() || left <= 0) return events;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, left)));
    }
  }

  /**
   * The port's Date keeps milliseconds; the log keeps microseconds. A time shown with fewer
   * digits than stored would, fed back as as_of, fall before its own event.
   */
  private async withExactTimes(events: readonly RecordedEvent[]): Promise<LedgerEvent[]> {
    if (events.length === 0) return [];
    const { rows } = await this.db.query<{ prepare: string; time: string }>(
      `SELECT position::text AS prepare, to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS time
         FROM es_events WHERE position = ANY($1::bigint[])`,
      [events.map((event) => event.position.prepare.toString())],
    );
    const times = new Map(rows.map((row) => [row.prepare, row.time]));
    return events.map((event) => ({
      stream: event.stream,
      revision: event.revision,
      position: event.position,
      time: times.get(event.position.prepare.toString()) ?? event.recordedAt.toISOString(),
      type: event.type,
      data: event.data,
      metadata: event.metadata ?? {},
    }));
  }
}
