import { EventOwners, LedgerEvent } from '#placement/ledger/index.js';
import type { Access } from '../platform/policy/access.js';

/**
 * The events the caller may see, each judged against the consumer it belonged to when written;
 * a caller who sees every project's data costs no look-up of owners.
 */
export async function visibleEvents(access: Access, owners: EventOwners, events: readonly LedgerEvent[]): Promise<LedgerEvent[]> {
  if (access.seesAll) return access.filter(events, () => null);
  const found = await owners.of(events);
  return access.filter(events, (event) => found.get(event) ?? null);
}
