import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore, LogPosition } from '#event-store/index.js';
import { LedgerEvent, toLedgerEvent } from './ledger-event.js';

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
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async page(after: LogPosition, limit: number): Promise<LedgerEvent[]> {
    return (await this.store.readAll(after, limit)).map(toLedgerEvent);
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
}
