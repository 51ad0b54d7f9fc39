import { Inject } from '@nestjs/common';
import { notFound } from '#domain/index.js';
import { READ_DB, ReadDb } from './read-db.js';

/** A read of one resource provider, named by its uuid. */
export abstract class ProviderQuery {
  constructor(readonly uuid: string) {}
}

/** The message of upstream's provider lookup when it finds nothing. */
export const noProvider = (uuid: string) => `No resource provider with uuid ${uuid} found`;

/**
 * The answer to a ProviderQuery from the rows of one statement (the uuid is its $1), which reads
 * rm_resource_providers LEFT JOINed to the rest: a provider with nothing else still gives one row,
 * with its generation from the same snapshot (and one round trip). No row is a 404. Each
 * subclass is a Nest query handler through its own @QueryHandler.
 */
export abstract class ProviderRowsHandler<Q extends ProviderQuery, Row extends Record<string, any>, Answer> {
  protected abstract readonly sql: string;

  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  protected abstract answer(rows: Row[]): Answer;

  /** Upstream's handlers word the 404 each their own way around the lookup's message. */
  protected missing(uuid: string): string {
    return noProvider(uuid);
  }

  async execute({ uuid }: Q): Promise<Answer> {
    const { rows } = await this.db.query<Row>(this.sql, [uuid]);
    if (rows.length === 0) throw notFound(this.missing(uuid));
    return this.answer(rows);
  }
}
