import { EventOwners, holdersNamed, LedgerEvent, revisionMarker, StreamHistoryPage } from '#placement/ledger/index.js';
import type { Access } from '../platform/policy/access.js';

/** The consumers whose owners one page of a provider's history looks up: each is a read of its stream. */
const HOLDERS_PER_PAGE = 1000;

/**
 * The events the caller may see, each judged against the consumer it belonged to when written;
 * a caller who sees every project's data costs no look-up of owners.
 */
export async function visibleEvents(access: Access, owners: EventOwners, events: readonly LedgerEvent[]): Promise<LedgerEvent[]> {
  if (access.seesAll) return access.filter(events, () => null);
  const found = await owners.of(events);
  return access.filter(events, (event) => found.get(event) ?? null);
}

/**
 * A page of a provider's history as the caller may see it: the provider's own facts whole (they
 * belong to no project, as its usages do), and of each change to what consumers hold on it, the
 * consumers the caller may see as their owners were when it was written; a change left with none
 * is left out. A page naming more consumers than HOLDERS_PER_PAGE ends early, its marker there.
 */
export async function visibleHoldings(access: Access, owners: EventOwners, page: StreamHistoryPage): Promise<StreamHistoryPage> {
  if (access.seesAll) return { ...page, events: access.filter(page.events, () => null) };
  const events = withinHolders(page.events);
  const nextMarker = events.length < page.events.length ? revisionMarker(events[events.length - 1].revision) : page.nextMarker;
  const ownerOf = await owners.holdersOf(events);
  const named = events.flatMap((event) => holdersNamed(event).map((consumer) => ({ event, consumer })));
  const shown = new Map<LedgerEvent, Record<string, unknown>>();
  for (const { event, consumer } of access.filter(named, (holding) => ownerOf(holding.event, holding.consumer))) {
    const holdings = shown.get(event) ?? {};
    holdings[consumer] = (event.data.consumers as Record<string, unknown>)[consumer];
    shown.set(event, holdings);
  }
  return {
    events: events.flatMap((event) => {
      if (holdersNamed(event).length === 0) return [event];
      const consumers = shown.get(event);
      return consumers ? [{ ...event, data: { ...event.data, consumers } }] : [];
    }),
    nextMarker,
  };
}

/** The page's events up to the one that would name more than HOLDERS_PER_PAGE consumers; never none. */
function withinHolders(events: readonly LedgerEvent[]): readonly LedgerEvent[] {
  const named = new Set<string>();
  for (const [i, event] of events.entries()) {
    for (const consumer of holdersNamed(event)) named.add(consumer);
    if (named.size > HOLDERS_PER_PAGE && i > 0) return events.slice(0, i);
  }
  return events;
}
