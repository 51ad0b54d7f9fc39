import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore, LogPosition } from '#event-store/index.js';
import { LedgerEvent, toLedgerEvent } from './ledger-event.js';

/** Which of the events read the caller may see (all of them, by default). */
export type FeedFilter = (events: LedgerEvent[]) => Promise<LedgerEvent[]>;

export interface WaitOptions {
  /** Give up (answer nothing) at this Date.now(). */
  readonly until: number;
  /** Asked between polls: true ends the wait at once (the client left, the server is draining). */
  readonly stopped: () => boolean;
  readonly pollMs?: number;
}

/** A page of the feed: the events the caller may see, and where the next page starts. */
export interface FeedPage {
  readonly events: LedgerEvent[];
  /** Past every event read, shown or not, so a caller that sees few events still moves on. */
  readonly next: LogPosition;
}

const everything: FeedFilter = async (events) => events;

/**
 * The global feed, in the store's gap-free order: a page read never skips an event whose
 * transaction commits after a later-numbered one, so a client resuming from the last
 * position it saw misses nothing.
 */
@Injectable()
export class LedgerFeed {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async page(after: LogPosition, limit: number, filter: FeedFilter = everything): Promise<FeedPage> {
    const read = (await this.store.readAll(after, limit)).map(toLedgerEvent);
    return { events: await filter(read), next: read.length > 0 ? read[read.length - 1].position : after };
  }

  /**
   * The first page after `after` with an event the caller may see, reading on past pages it may
   * not and polling at the head, until one appears or the wait ends (then no events).
   */
  async waitForPage(after: LogPosition, limit: number, options: WaitOptions, filter: FeedFilter = everything): Promise<FeedPage> {
    const pollMs = options.pollMs ?? 100;
    let from = after;
    for (;;) {
      const page = await this.page(from, limit, filter);
      const left = options.until - Date.now();
      if (page.events.length > 0 || options.stopped() || left <= 0) return page;
      const readSome = page.next !== from;
      from = page.next;
      if (!readSome) await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, left)));
    }
  }
}
