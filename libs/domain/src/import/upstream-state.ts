import type { Inventory } from '../provider/inventory.js';

/**
 * An upstream Placement database as one consistent snapshot, with upstream's integer ids
 * already resolved to the names and uuids its API shows. Times are ISO 8601 strings in UTC;
 * `modifiedAt` is what upstream's Last-Modified uses: updated_at, else created_at.
 */
export interface UpstreamState {
  /** alembic_version: the source schema's revision. */
  readonly revision: string;
  /** Custom classes only (CUSTOM_*): the standard ones are built in here. */
  readonly resourceClasses: readonly UpstreamNamed[];
  /** Custom traits only (CUSTOM_*). */
  readonly traits: readonly UpstreamNamed[];
  readonly providers: readonly UpstreamProvider[];
  readonly consumers: readonly UpstreamConsumer[];
}

export interface UpstreamNamed {
  readonly name: string;
  readonly modifiedAt: string;
}

export interface UpstreamProvider {
  readonly uuid: string;
  readonly name: string;
  readonly generation: number;
  readonly parentUuid: string | null;
  readonly modifiedAt: string;
  readonly inventories: Readonly<Record<string, Inventory>>;
  /** The latest of the inventory rows' times; null without inventory. */
  readonly inventoriesModifiedAt: string | null;
  readonly traits: readonly string[];
  readonly aggregates: readonly string[];
}

export interface UpstreamConsumer {
  readonly uuid: string;
  readonly projectId: string;
  readonly userId: string;
  /** null: no type recorded (written below 1.38), shown as "unknown". */
  readonly consumerType: string | null;
  readonly generation: number;
  /** provider uuid -> class -> used, providers in the order upstream wrote them (row id). */
  readonly allocations: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** The allocation rows' creation time (upstream re-inserts them on every write); else the consumer's. */
  readonly modifiedAt: string;
}
