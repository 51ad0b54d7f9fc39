import { QueryHandler } from '@nestjs/cqrs';
import { noProvider, ProviderQuery, ProviderRowsHandler } from '../shared/provider-query.js';
import { PROVIDER_INVENTORIES } from '../inventories/inventory.queries.js';
import { ClassUsages } from './usage-grouping.js';

export interface ProviderUsages {
  readonly generation: number;
  readonly usages: ClassUsages;
}

export class GetProviderUsages extends ProviderQuery {}

type Joined = { generation: number; resource_class: string | null; used: string | null };

/** Every class the provider has inventory of (in the inventories' order), 0 when nothing is allocated. */
@QueryHandler(GetProviderUsages)
export class GetProviderUsagesHandler extends ProviderRowsHandler<GetProviderUsages, Joined, ProviderUsages> {
  protected readonly sql = `SELECT p.generation, i.resource_class,
              (SELECT COALESCE(SUM(a.used), 0) FROM rm_allocations a
                WHERE a.provider_uuid = i.provider_uuid AND a.resource_class = i.resource_class) AS used
         ${PROVIDER_INVENTORIES}`;

  /** Upstream's handler repeats the lookup's own message after its own. */
  protected override missing(uuid: string): string {
    return `${noProvider(uuid)}: ${noProvider(uuid)}`;
  }

  protected answer(rows: Joined[]): ProviderUsages {
    const usages: ClassUsages = {};
    for (const row of rows) if (row.resource_class !== null) usages[row.resource_class] = Number(row.used);
    return { generation: rows[0].generation, usages };
  }
}
