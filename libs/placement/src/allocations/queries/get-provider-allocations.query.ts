import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound } from '#domain/index.js';
import { READ_DB, ReadDb } from '../../shared/read-db.js';

export interface ProviderAllocationRow {
  readonly consumer_uuid: string;
  readonly consumer_generation: number;
  readonly resource_class: string;
  readonly used: number;
  readonly created_at: Date;
  readonly updated_at: Date;
}

export interface ProviderAllocations {
  readonly generation: number;
  readonly rows: readonly ProviderAllocationRow[];
}

export class GetProviderAllocations {
  constructor(readonly providerUuid: string) {}
}

/**
 * Who holds what on one provider, read in one statement so the generation matches the lines.
 * Consumers come in the order they were last written (upstream rewrites a consumer's rows on each
 * write and reads them back in table order), each consumer's classes as it wrote them.
 */
@QueryHandler(GetProviderAllocations)
export class GetProviderAllocationsHandler implements IQueryHandler<GetProviderAllocations, ProviderAllocations> {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  async execute({ providerUuid: uuid }: GetProviderAllocations): Promise<ProviderAllocations> {
    const { rows } = await this.db.query<{ generation: number } & Partial<ProviderAllocationRow>>(
      `SELECT p.generation, a.consumer_uuid, c.generation AS consumer_generation, a.resource_class, a.used, a.created_at, a.updated_at
         FROM rm_resource_providers p
         LEFT JOIN rm_allocations a ON a.provider_uuid = p.uuid
         LEFT JOIN rm_consumers c ON c.uuid = a.consumer_uuid
        WHERE p.uuid = $1
        ORDER BY a.created_at, a.consumer_uuid, a.position`,
      [uuid],
    );
    if (rows.length === 0) {
      throw notFound(`Resource provider '${uuid}' not found: No resource provider with uuid ${uuid} found`);
    }
    const lines = rows.filter((row): row is { generation: number } & ProviderAllocationRow => row.consumer_uuid != null);
    return { generation: rows[0].generation, rows: lines };
  }
}
