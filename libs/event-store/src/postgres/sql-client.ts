import type { AppendedEvent, LogPosition } from '../port.js';

/** The part of a pg client the store and the inline projections need. */
export interface SqlClient {
  query<R extends Record<string, any> = any>(text: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
  /**
   * Where the connection can hold statements (the append's, BatchedSql): a statement whose answer
   * the caller does not need, sent with the transaction's next round trip. See `send`.
   */
  defer?(text: string, params?: readonly unknown[]): void;
}

/** A statement whose answer is not needed: held for the next round trip where the connection can, else run now. */
export async function send(tx: SqlClient, text: string, params?: unknown[]): Promise<void> {
  if (tx.defer) tx.defer(text, params);
  else await tx.query(text, params);
}

/**
 * The position of the last event the current transaction appended, where the events are
 * projected before the log has numbered them (log-appends.ts): a statement then names it in SQL.
 */
export const THIS_TRANSACTION = 'this transaction';

/**
 * Runs inside the append's transaction, so read models commit with the events or not at all.
 * What needs no answer it sends with `send`: on an append, that rides with the COMMIT. `through`
 * is the position of the last of `events`.
 */
export type InlineProjector = (tx: SqlClient, events: readonly AppendedEvent[], through: LogPosition | typeof THIS_TRANSACTION) => Promise<void>;
