/** The part of a pg client the store and the inline projections need. */
export interface SqlClient {
  query<R extends Record<string, any> = any>(text: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

/**
 * Runs inside the append's transaction, so read models commit with the events or not at all. What
 * it answers, if anything, is one more statement of that transaction, of literals only (no
 * parameters), which the store sends in the same round trip as its COMMIT.
 */
export type InlineProjector = (tx: SqlClient, events: readonly import('../port.js').RecordedEvent[]) => Promise<string | void>;
