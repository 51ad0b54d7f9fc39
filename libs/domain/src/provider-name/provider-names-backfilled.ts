/**
 * Logs written before the name streams existed hold providers whose names no stream holds.
 * They are given theirs once (libs/placement/src/providers/provider-name-backfill.ts), and this
 * stream's single event says it was done, so no later start looks again; an import, which
 * writes every name stream itself, writes it too. A stored type: add, never change.
 */
export const PROVIDER_NAMES_BACKFILLED_STREAM = 'reserved-provider-names-backfilled';

export interface ProviderNamesBackfilled {
  readonly type: 'ProviderNamesBackfilled';
  readonly data: {
    /** Providers found (in the read model at its checkpoint and the log's tail after it). */
    readonly providers: number;
    /** Names this run reserved; the others were held already. */
    readonly reserved: number;
    readonly v: 1;
  };
}
