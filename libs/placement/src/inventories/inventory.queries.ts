import { QueryHandler } from '@nestjs/cqrs';
import { Inventory } from '#domain/index.js';
import { noProvider, ProviderQuery, ProviderRowsHandler } from '../shared/provider-query.js';

interface InventoryRow extends Inventory {
  readonly resource_class: string;
  readonly created_at: Date;
  readonly updated_at: Date;
}

export interface ProviderInventories {
  readonly generation: number;
  readonly inventories: readonly InventoryRow[];
}

/**
 * A provider's row with its inventory records (i), one row with nulls when it has none, in class
 * id order, as upstream's rows come (standard classes first, then custom ones as created). The
 * usages read the same rows.
 */
export const PROVIDER_INVENTORIES = `FROM rm_resource_providers p LEFT JOIN rm_inventories i ON i.provider_uuid = p.uuid
         LEFT JOIN rm_resource_classes rc ON rc.name = i.resource_class
        WHERE p.uuid = $1
        ORDER BY rc.id, i.resource_class`;

/** A provider's generation with all its inventory records. */
export class GetProviderInventories extends ProviderQuery {}

type Joined = { generation: number } & { [K in keyof InventoryRow]: InventoryRow[K] | null };

@QueryHandler(GetProviderInventories)
class GetProviderInventoriesHandler extends ProviderRowsHandler<GetProviderInventories, Joined, ProviderInventories> {
  protected readonly sql = `SELECT p.generation, i.resource_class, i.total, i.reserved, i.min_unit, i.max_unit, i.step_size,
              i.allocation_ratio, i.created_at, i.updated_at
         ${PROVIDER_INVENTORIES}`;

  /** Upstream's GET handlers wrap the lookup's message in their own. */
  protected override missing(uuid: string): string {
    return `${noProvider(uuid)} : ${noProvider(uuid)}`;
  }

  protected answer(rows: Joined[]): ProviderInventories {
    const inventories = rows.filter((r): r is Joined & InventoryRow => r.resource_class !== null);
    return { generation: rows[0].generation, inventories: inventories.map(({ generation: _g, ...row }) => row) };
  }
}

export const INVENTORY_QUERY_HANDLERS = [GetProviderInventoriesHandler];
