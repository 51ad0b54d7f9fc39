import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Inventory, notFound } from '#domain/index.js';
import { READ_DB, ReadDb } from '../shared/read-db.js';

export interface InventoryRow extends Inventory {
  readonly resource_class: string;
  readonly created_at: Date;
  readonly updated_at: Date;
}

export interface ProviderInventories {
  readonly generation: number;
  readonly inventories: readonly InventoryRow[];
}

/** A provider's generation with all its inventory records. */
export class GetProviderInventories {
  constructor(readonly uuid: string) {}
}

type Joined = { generation: number } & { [K in keyof InventoryRow]: InventoryRow[K] | null };

@QueryHandler(GetProviderInventories)
export class GetProviderInventoriesHandler implements IQueryHandler<GetProviderInventories, ProviderInventories> {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  async execute({ uuid }: GetProviderInventories): Promise<ProviderInventories> {
    // One statement, so the generation and the records come from the same snapshot. Records in
    // class id order, as upstream's rows come (standard classes first, then custom ones as created).
    const { rows } = await this.db.query<Joined>(
      `SELECT p.generation, i.resource_class, i.total, i.reserved, i.min_unit, i.max_unit, i.step_size,
              i.allocation_ratio, i.created_at, i.updated_at
         FROM rm_resource_providers p LEFT JOIN rm_inventories i ON i.provider_uuid = p.uuid
         LEFT JOIN rm_resource_classes rc ON rc.name = i.resource_class
        WHERE p.uuid = $1
        ORDER BY rc.id, i.resource_class`,
      [uuid],
    );
    if (rows.length === 0) {
      // Upstream's GET handlers wrap the lookup's message in their own.
      const missing = `No resource provider with uuid ${uuid} found`;
      throw notFound(`${missing} : ${missing}`);
    }
    const inventories = rows.filter((r): r is Joined & InventoryRow => r.resource_class !== null);
    return { generation: rows[0].generation, inventories: inventories.map(({ generation: _g, ...row }) => row) };
  }
}

export const INVENTORY_QUERY_HANDLERS = [GetProviderInventoriesHandler];
