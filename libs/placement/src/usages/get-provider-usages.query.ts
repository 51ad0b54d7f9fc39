import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound } from '#domain/index.js';
import { READ_DB, ReadDb } from '../shared/read-db.js';
import { ClassUsages } from './usage-grouping.js';

export interface ProviderUsages {
  readonly generation: number;
  readonly usages: ClassUsages;
}

export class GetProviderUsages {
  constructor(readonly uuid: string) {}
}

/**
 * Every class the provider has inventory of, 0 when nothing is allocated; one statement, one
 * snapshot. Classes in id order, as upstream's rows come (standard ones as os-resource-classes
 * lists them, then custom ones as created).
 */
@QueryHandler(GetProviderUsages)
export class GetProviderUsagesHandler implements IQueryHandler<GetProviderUsages, ProviderUsages> {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  async execute({ uuid }: GetProviderUsages): Promise<ProviderUsages> {
    const { rows } = await this.db.query<{ generation: number; resource_class: string | null; used: string | null }>(
      `SELECT p.generation, i.resource_class,
              (SELECT COALESCE(SUM(a.used), 0) FROM rm_allocations a
                WHERE a.provider_uuid = i.provider_uuid AND a.resource_class = i.resource_class) AS used
         FROM rm_resource_providers p LEFT JOIN rm_inventories i ON i.provider_uuid = p.uuid
         LEFT JOIN rm_resource_classes rc ON rc.name = i.resource_class
        WHERE p.uuid = $1
        ORDER BY rc.id, i.resource_class`,
      [uuid],
    );
    if (rows.length === 0) {
      // Upstream's handler repeats the lookup's own message after its own.
      const detail = `No resource provider with uuid ${uuid} found`;
      throw notFound(`${detail}: ${detail}`);
    }
    const usages: ClassUsages = {};
    for (const row of rows) if (row.resource_class !== null) usages[row.resource_class] = Number(row.used);
    return { generation: rows[0].generation, usages };
  }
}
