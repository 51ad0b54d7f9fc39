/** One inventory record of a provider, as upstream stores it. */
export interface Inventory {
  readonly total: number;
  readonly reserved: number;
  readonly min_unit: number;
  readonly max_unit: number;
  readonly step_size: number;
  readonly allocation_ratio: number;
}

const INT_MAX = 2147483647;

const INVENTORY_DEFAULTS: Omit<Inventory, 'total'> = {
  reserved: 0,
  min_unit: 1,
  max_unit: INT_MAX,
  step_size: 1,
  allocation_ratio: 1.0,
};

export type Inventories = Readonly<Record<string, Inventory>>;

/** How much of a class can be allocated in all: (total - reserved) * allocation_ratio. */
export function capacity(inventory: Inventory): number {
  return Math.trunc((inventory.total - inventory.reserved) * inventory.allocation_ratio);
}

/** A record as a client sent it (only total is required), completed as upstream's handler does. */
export function inventoryWithDefaults(fields: Partial<Inventory> & { total: number }): Inventory {
  const { total, reserved, min_unit, max_unit, step_size, allocation_ratio } = { ...INVENTORY_DEFAULTS, ...fields };
  return { total, reserved, min_unit, max_unit, step_size, allocation_ratio };
}
