import { FIRST_CUSTOM_RESOURCE_CLASS_ID, Inventory } from '#domain/index.js';
import type { AllocationOrder } from '#domain/consumer/index.js';

/** The slice of a log event the in-memory replays read. */
export interface ReplayEvent {
  readonly stream: string;
  readonly revision: number;
  readonly type: string;
  readonly data: any;
  readonly recordedAt: Date;
}

export interface ProviderRow {
  readonly uuid: string;
  name: string;
  generation: number;
  parent: string | null;
  root: string;
  readonly createdAt: Date;
  updatedAt: Date;
}

export interface InventoryRow extends Inventory {
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface ConsumerRow {
  readonly projectId: string;
  readonly userId: string;
  readonly consumerType: string | null;
  readonly generation: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Rows of one consumer: every row of a write shares the write's time. */
export interface ConsumerHoldings {
  readonly allocations: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** The event's written_order (absent in older events): the rows' positions. */
  readonly order?: AllocationOrder;
  readonly at: Date;
}

export interface CustomClassRow {
  readonly id: number;
  readonly createdAt: Date;
  readonly updatedAt: Date | null;
}

/**
 * Every rm_* table as maps, filled by the replays in memory/ exactly as the SQL projections
 * fill the tables, so a rebuild writes the final rows once instead of replaying SQL per event.
 */
export class ReadModelMemory {
  readonly providers = new Map<string, ProviderRow>();
  /** parent uuid -> children, as the rows' parent_provider_uuid say; for re-rooting a subtree. */
  readonly children = new Map<string, Set<string>>();
  readonly inventories = new Map<string, Map<string, InventoryRow>>();
  readonly providerTraits = new Map<string, readonly string[]>();
  readonly providerAggregates = new Map<string, readonly string[]>();
  readonly customClasses = new Map<string, CustomClassRow>();
  /** rm_custom_resource_class_ids: nextval is spent even when the insert then conflicts. */
  nextClassId = FIRST_CUSTOM_RESOURCE_CLASS_ID;
  readonly customTraits = new Map<string, Date>();
  readonly consumers = new Map<string, ConsumerRow>();
  readonly holdings = new Map<string, ConsumerHoldings>();

  link(parent: string | null, child: string): void {
    if (parent === null) return;
    let set = this.children.get(parent);
    if (!set) this.children.set(parent, (set = new Set()));
    set.add(child);
  }

  unlink(parent: string | null, child: string): void {
    if (parent !== null) this.children.get(parent)?.delete(child);
  }
}
