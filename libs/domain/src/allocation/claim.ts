import { ConsumerAllocations, ConsumerEvent, Mappings } from '../consumer/consumer.events.js';
import { ConsumerState } from '../consumer/consumer.state.js';
import { ProviderEvent } from '../provider/provider.events.js';
import { ProviderState } from '../provider/provider.state.js';

/** Which endpoint asked: upstream words the same failure differently for each. */
export type ClaimForm = 'consumer' | 'batch' | 'reshape';

/** One consumer's part of a claim, already normalised from whichever body format the client used. */
export interface ConsumerClaim {
  readonly consumerUuid: string;
  /** The consumer's whole new set, in request order; {} releases everything it holds. */
  readonly allocations: ConsumerAllocations;
  readonly projectId: string;
  readonly userId: string;
  /** undefined below 1.38: an existing consumer keeps its type, a new one has none. */
  readonly consumerType?: string;
  /** undefined below 1.28 (nothing is checked); null: the client believes the consumer is new. */
  readonly expectedGeneration?: number | null;
  readonly mappings?: Mappings;
}

/** PUT /allocations/{consumer}, POST /allocations, and the allocations half of POST /reshaper. */
export interface ClaimAllocations {
  readonly type: 'ClaimAllocations';
  readonly form: ClaimForm;
  readonly claims: readonly ConsumerClaim[];
  /** Looked up by the handler: resource classes named in the claims that do not exist. */
  readonly unknownClasses: readonly string[];
}

/** DELETE /allocations/{consumer}. */
export interface RemoveAllocations {
  readonly type: 'RemoveAllocations';
  readonly consumerUuid: string;
}

/** Every stream a claim decides over: its consumers, and every provider they hold or will hold. */
export interface ClaimState {
  readonly consumers: Readonly<Record<string, ConsumerState>>;
  readonly providers: Readonly<Record<string, ProviderState>>;
}

/** New events per stream (by consumer uuid and provider uuid), to be appended in one go. */
export interface ClaimDecision {
  readonly consumers: Readonly<Record<string, ConsumerEvent[]>>;
  readonly providers: Readonly<Record<string, ProviderEvent[]>>;
}

/** The providers a claim must load: those named in it and those its consumers hold now. */
export function providersTouched(claims: readonly ConsumerClaim[], consumers: ClaimState['consumers']): string[] {
  const uuids = new Set<string>();
  for (const claim of claims) {
    for (const uuid of Object.keys(claim.allocations)) uuids.add(uuid);
    const current = consumers[claim.consumerUuid];
    if (current?.status === 'active') for (const uuid of Object.keys(current.allocations)) uuids.add(uuid);
  }
  return [...uuids];
}
