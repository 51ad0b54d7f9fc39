import type { ConsumerState } from '../consumer/consumer.state.js';
import type { ProviderState } from '../provider/provider.state.js';

/**
 * What an undo means for a stream that did not exist at the point it goes back to:
 * - restore: leave it as it is (a restore brings back what was; it never removes what came later);
 * - revert: take it away (undoing a creation removes what it created).
 */
export type UndoMode = 'revert' | 'restore';

/** A stream to take back: the state to come back to, and the last generation its stream recorded. */
export interface Target<State> {
  readonly then: State;
  /**
   * The generation the stream's newest event carries (null: none). A provider or consumer made
   * again continues after it, so generations only move forward and a client holding an old one
   * gets its 409 and reads again, as after any other writer.
   */
  readonly lastGeneration: number | null;
}

/** Everything an undo is decided on, read by the caller (the log, the read models), so deciding stays pure. */
export interface UndoInput {
  readonly mode: UndoMode;
  /** Every provider the plan touches or depends on (scope, parents, consumers' providers): its state now. */
  readonly providersNow: Readonly<Record<string, ProviderState>>;
  /** Providers in scope, by uuid. */
  readonly providerTargets: Readonly<Record<string, Target<ProviderState>>>;
  /** Every consumer in scope: its state now. */
  readonly consumersNow: Readonly<Record<string, ConsumerState>>;
  readonly consumerTargets: Readonly<Record<string, Target<ConsumerState>>>;
  /** Who holds each name a provider comes back with, now (null: free). */
  readonly nameHolders: Readonly<Record<string, string | null>>;
  /** Providers whose parent is each provider now (for taking a provider away in a revert). */
  readonly childrenNow: Readonly<Record<string, readonly string[]>>;
  /** Resource classes and traits the targets name that no longer exist (deleted since). */
  readonly unknownClasses: readonly string[];
  readonly unknownTraits: readonly string[];
}
