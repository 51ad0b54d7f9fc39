import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound } from '#domain/index.js';
import { READ_DB, ReadDb } from '../shared/read-db.js';

export interface ProviderAggregates {
  readonly generation: number;
  readonly aggregates: readonly string[];
}

export class GetProviderAggregates {
  constructor(readonly uuid: string) {}
}

/**
 * One statement, so the generation and the set come from the same snapshot. Upstream lists
 * them in no promised order; sorting keeps replies stable.
 */
@QueryHandler(GetProviderAggregates)
export class GetProviderAggregatesHandler implements IQueryHandler<GetProviderAggregates, ProviderAggregates> {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  async execute({ uuid }: GetProviderAggregates): Promise<ProviderAggregates> {
    const { rows } = await this.db.query<{ generation: number; aggregates: string[] }>(
      `SELECT p.generation,
              ARRAY(SELECT a.aggregate_uuid FROM rm_provider_aggregates a WHERE a.provider_uuid = p.uuid ORDER BY a.aggregate_uuid) AS aggregates
         FROM rm_resource_providers p WHERE p.uuid = $1`,
      [uuid],
    );
    if (rows.length === 0) throw notFound(`No resource provider with uuid ${uuid} found`);
    return rows[0];
  }
}
