import { evolveProvider, initialProviderState, ProviderEvent, ProviderState } from '#domain/index.js';
import { ConsumerEvent, ConsumerState, evolveConsumer, initialConsumerState } from '#domain/consumer/index.js';
import { Fold } from './stream-snapshot.js';

// The domain's own evolve functions: a past state is the state the deciders had then.
export const PROVIDER_FOLD: Fold<ProviderState> = {
  initial: initialProviderState, evolve: (state, event) => evolveProvider(state, event as unknown as ProviderEvent),
};
export const CONSUMER_FOLD: Fold<ConsumerState> = {
  initial: initialConsumerState, evolve: (state, event) => evolveConsumer(state, event as unknown as ConsumerEvent),
};

/** The fold of a stream that has snapshots (providers' and consumers'), by its name. */
export function foldOfStream(stream: string): Fold<unknown> | undefined {
  if (stream.startsWith('provider-')) return PROVIDER_FOLD as Fold<unknown>;
  if (stream.startsWith('consumer-')) return CONSUMER_FOLD as Fold<unknown>;
  return undefined;
}
