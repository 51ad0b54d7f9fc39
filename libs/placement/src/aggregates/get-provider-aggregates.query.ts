import { QueryHandler } from '@nestjs/cqrs';
import { ProviderQuery, ProviderRowsHandler } from '../shared/provider-query.js';

export interface ProviderAggregates {
  readonly generation: number;
  readonly aggregates: readonly string[];
}

export class GetProviderAggregates extends ProviderQuery {}

/** Upstream lists them in no promised order; sorting keeps replies stable. */
@QueryHandler(GetProviderAggregates)
export class GetProviderAggregatesHandler extends ProviderRowsHandler<GetProviderAggregates, ProviderAggregates, ProviderAggregates> {
  protected readonly sql = `SELECT p.generation,
              ARRAY(SELECT a.aggregate_uuid FROM rm_provider_aggregates a WHERE a.provider_uuid = p.uuid ORDER BY a.aggregate_uuid) AS aggregates
         FROM rm_resource_providers p WHERE p.uuid = $1`;

  protected answer([row]: ProviderAggregates[]): ProviderAggregates {
    return row;
  }
}
