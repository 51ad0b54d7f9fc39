import type { AsOf } from '../ledger/as-of.js';

/** What to restore: every stream named, and the streams each name stands for. */
export interface RestoreScope {
  readonly providers: readonly string[];
  /** Each provider's whole tree as it was then (its descendants at that point). */
  readonly tree: boolean;
  /** With the providers, the consumers that held allocations on them then (default). */
  readonly withConsumers: boolean;
  readonly consumers: readonly string[];
  /** Consumers that belonged to the project then. */
  readonly projects: readonly string[];
  /** Providers that were members of the aggregate then. */
  readonly aggregates: readonly string[];
}

export type UndoRequest =
  | { readonly kind: 'revert'; readonly requestId: string; readonly forceStreams: readonly string[] }
  | { readonly kind: 'restore'; readonly asOf: AsOf; readonly scope: RestoreScope };

/** Plan only (the default), or apply the plan whose hash the operator read. */
export interface UndoOptions {
  readonly apply: boolean;
  readonly planHash?: string;
}
