import {
  evolveProvider, initialProviderState, ProviderEvent, ProviderHolding, ProviderState,
} from '#domain/index.js';
import { comparePositions } from '#event-store/index.js';
import { LedgerEvent } from './ledger-event.js';

export interface ProviderClaim {
  readonly consumerUuid: string;
  readonly resources: ProviderHolding;
  /** The write that began the consumer's present, unbroken holding on this provider. */
  readonly claimed: LedgerEvent;
  /** The latest write that set the holding (the same amounts rewritten count: upstream rewrote them). */
  readonly lastWritten: LedgerEvent;
}

export interface ProviderClaims {
  readonly state: ProviderState;
  /** Oldest claim first. */
  readonly claims: readonly ProviderClaim[];
}

/**
 * Replays a provider's stream with the domain's own evolve, and beside it remembers, for each
 * consumer holding something now, which event began and which last rewrote its holding.
 */
export function providerClaims(events: readonly LedgerEvent[]): ProviderClaims {
  let state: ProviderState = initialProviderState();
  let claims = new Map<string, ProviderClaim>();
  for (const event of events) {
    state = evolveProvider(state, event as unknown as ProviderEvent);
    // A uuid created again after a delete starts a provider with no past claims.
    if (event.type === 'ResourceProviderCreated') claims = new Map();
    if (event.type !== 'ProviderAllocationsChanged') continue;
    const changed = (event.data as { consumers: Record<string, ProviderHolding> }).consumers;
    for (const [consumerUuid, resources] of Object.entries(changed)) {
      const before = claims.get(consumerUuid);
      if (Object.keys(resources).length === 0) claims.delete(consumerUuid);
      else claims.set(consumerUuid, { consumerUuid, resources, claimed: before?.claimed ?? event, lastWritten: event });
    }
  }
  const held = state.status === 'active' ? [...claims.values()] : [];
  return { state, claims: held.sort((a, b) => comparePositions(a.claimed.position, b.claimed.position)) };
}
