import { QueryHandler } from '@nestjs/cqrs';
import { noProvider, ProviderQuery, ProviderRowsHandler } from '../../shared/provider-query.js';

interface ProviderAllocationRow {
  readonly consumer_uuid: string;
  readonly consumer_generation: number;
  /** The consumer's owner, against whom the route judges the row. */
  readonly project_id: string;
  readonly user_id: string;
  readonly resource_class: string;
  readonly used: number;
  readonly created_at: Date;
  readonly updated_at: Date;
}

export interface ProviderAllocations {
  readonly generation: number;
  readonly rows: readonly ProviderAllocationRow[];
}

export class GetProviderAllocations extends ProviderQuery {}

type Joined = { generation: number } & Partial<ProviderAllocationRow>;

/**
 * Who holds what on one provider, read in one statement so the generation matches the lines.
 * Consumers come in the order they were last written (upstream rewrites a consumer's rows on each
 * write and reads them back in table order), each consumer's classes as it wrote them.
 */
@QueryHandler(GetProviderAllocations)
export class GetProviderAllocationsHandler extends ProviderRowsHandler<GetProviderAllocations, Joined, ProviderAllocations> {
  protected readonly sql = `SELECT p.generation, a.consumer_uuid, c.generation AS consumer_generation, c.project_id, c.user_id,
              a.resource_class, a.used, a.created_at, a.updated_at
         FROM rm_resource_providers p
         LEFT JOIN rm_allocations a ON a.provider_uuid = p.uuid
         LEFT JOIN rm_consumers c ON c.uuid = a.consumer_uuid
        WHERE p.uuid = $1
        ORDER BY a.created_at, a.consumer_uuid, a.position`;

  protected override missing(uuid: string): string {
    return `Resource provider '${uuid}' not found: ${noProvider(uuid)}`;
  }

  protected answer(rows: Joined[]): ProviderAllocations {
    const lines = rows.filter((row): row is { generation: number } & ProviderAllocationRow => row.consumer_uuid != null);
    return { generation: rows[0].generation, rows: lines };
  }
}
