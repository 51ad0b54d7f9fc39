import type { ConsumerEvent } from '../consumer/consumer.events.js';
import type { ProviderEvent } from '../provider/provider.events.js';

/** What the operator reads of a stream, now and at the point it comes back to. */
export type ProviderSummary =
  | { readonly status: 'absent' | 'deleted' }
  | {
      readonly status: 'active'; readonly name: string; readonly parent_provider_uuid: string | null; readonly generation: number;
      readonly inventories: object; readonly traits: readonly string[]; readonly aggregates: readonly string[];
      readonly usages: Readonly<Record<string, number>>;
    };

export type ConsumerSummary =
  | { readonly status: 'absent' }
  | {
      readonly status: 'active'; readonly project_id: string; readonly user_id: string; readonly consumer_type: string | null;
      readonly generation: number; readonly allocations: object;
    };

/** One stream of the plan: where it is, where it goes back to, what is appended, and what stops it. */
export interface StreamPlan {
  readonly stream: string;
  readonly kind: 'provider' | 'consumer';
  readonly uuid: string;
  readonly now: ProviderSummary | ConsumerSummary;
  readonly then: ProviderSummary | ConsumerSummary | null;
  readonly events: readonly (ProviderEvent | ConsumerEvent)[];
  /** Why this stream is not taken back (never applied); empty when it is. */
  readonly problems: readonly string[];
}

export interface UndoPlan {
  readonly streams: readonly StreamPlan[];
}
