import type { Pool } from 'pg';
import { SqlClient, statementName } from '#event-store/index.js';

/** At most this many texts are named: the code's own are far fewer (see NamedReads). */
export const MAX_NAMED_TEXTS = 512;

/**
 * The read models' queries as named statements of the protocol, so each text is parsed once per
 * connection and PostgreSQL may keep a generic plan (it does so after five custom ones where the
 * generic costs no more); an unnamed statement is parsed and planned on every call, which for the
 * joins behind the reads costs the database more than running them. The texts are
 * the code's own and values are parameters; the bound keeps a text that some day carried data
 * from preparing a statement per value on every connection: past it, texts go unnamed.
 */
export class NamedReads implements SqlClient {
  private readonly named = new Set<string>();

  constructor(private readonly pool: Pool) {}

  query<R extends Record<string, any> = any>(text: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }> {
    if (params === undefined || params.length === 0 || !this.nameable(text)) return this.pool.query<R>(text, params);
    return this.pool.query<R>({ name: statementName(text), text, values: params });
  }

  private nameable(text: string): boolean {
    if (this.named.has(text)) return true;
    if (this.named.size >= MAX_NAMED_TEXTS) return false;
    this.named.add(text);
    return true;
  }
}
