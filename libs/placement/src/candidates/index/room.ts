import { ActiveProvider, capacity } from '#domain/index.js';

/** What a provider can still give of one class, and in which amounts. */
export interface Room {
  /** capacity - used: what upstream's capacity clause leaves. */
  readonly free: number;
  readonly min: number;
  readonly max: number;
  readonly step: number;
}

const NO_ROOM: ReadonlyMap<string, Room> = new Map();

/**
 * Every class's room, worked out once per change of inventory or usage rather than once per
 * provider per search: the search reads it for every provider of the classes it asks for.
 */
export function roomsOf(state: ActiveProvider): ReadonlyMap<string, Room> {
  const classes = Object.keys(state.inventories);
  if (classes.length === 0) return NO_ROOM;
  const rooms = new Map<string, Room>();
  for (const rc of classes) {
    const inventory = state.inventories[rc];
    rooms.set(rc, {
      free: capacity(inventory) - (state.usages[rc] ?? 0), min: inventory.min_unit, max: inventory.max_unit, step: inventory.step_size,
    });
  }
  return rooms;
}
