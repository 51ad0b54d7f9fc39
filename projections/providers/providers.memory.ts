import type { Inventories } from '#domain/index.js';
import { InventoryRow, ReadModelMemory, ReplayEvent } from '../runner/read-model-memory.js';
import { factTime } from '../runner/fact-time.js';

const uuidOf = (event: ReplayEvent) => event.stream.slice('provider-'.length);

/** projections/providers in memory: the same rows, the same timestamps rules. */
export function replayProviderEvent(memory: ReadModelMemory, event: ReplayEvent): void {
  const uuid = uuidOf(event);
  const at = factTime(event);
  const data = event.data;
  switch (event.type) {
    case 'ResourceProviderCreated': {
      if (memory.providers.has(uuid)) return;
      const parent: string | null = data.parent_provider_uuid ?? null;
      const root = (parent !== null && memory.providers.get(parent)?.root) || uuid;
      memory.providers.set(uuid, { uuid, name: data.name, generation: data.generation, parent, root, createdAt: at, updatedAt: at });
      memory.link(parent, uuid);
      return;
    }
    case 'ResourceProviderUpdated':
      return update(memory, uuid, data.name, data.parent_provider_uuid ?? null, data.generation, at);
    case 'ResourceProviderDeleted': {
      memory.inventories.delete(uuid);
      memory.providerTraits.delete(uuid);
      memory.providerAggregates.delete(uuid);
      const row = memory.providers.get(uuid);
      if (row) memory.unlink(row.parent, uuid);
      memory.providers.delete(uuid);
      return;
    }
    case 'InventoriesSet':
      touch(memory, uuid, data.generation, at);
      return replaceInventories(memory, uuid, data.inventories, at);
    case 'TraitsSet':
      touch(memory, uuid, data.generation, at);
      memory.providerTraits.set(uuid, data.traits);
      return;
    case 'AggregatesSet':
      touch(memory, uuid, data.generation, at);
      memory.providerAggregates.set(uuid, data.aggregates);
      return;
  }
}

/** As the projection's touch: updated_at only moves with the generation, which only grows. */
function touch(memory: ReadModelMemory, uuid: string, generation: number, at: Date): void {
  const row = memory.providers.get(uuid);
  if (!row || row.generation >= generation) return;
  row.generation = generation;
  row.updatedAt = at;
}

function update(memory: ReadModelMemory, uuid: string, name: string, parent: string | null, generation: number, at: Date): void {
  const row = memory.providers.get(uuid);
  if (!row) return;
  const previous = row.parent;
  Object.assign(row, { name, parent, generation, updatedAt: at });
  if (previous === parent) return;
  memory.unlink(previous, uuid);
  memory.link(parent, uuid);
  const root = (parent !== null && memory.providers.get(parent)?.root) || uuid;
  const pending = [uuid];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    const child = memory.providers.get(next);
    if (child) child.root = root;
    for (const grandchild of memory.children.get(next) ?? []) pending.push(grandchild);
  }
}

/** Classes left out are deleted; the rest upserted, keeping created_at of an existing record. */
function replaceInventories(memory: ReadModelMemory, uuid: string, inventories: Inventories, at: Date): void {
  const before = memory.inventories.get(uuid);
  const after = new Map<string, InventoryRow>();
  for (const [rc, inventory] of Object.entries(inventories)) {
    const { total, reserved, min_unit, max_unit, step_size, allocation_ratio } = inventory;
    after.set(rc, { total, reserved, min_unit, max_unit, step_size, allocation_ratio, createdAt: before?.get(rc)?.createdAt ?? at, updatedAt: at });
  }
  if (after.size === 0) memory.inventories.delete(uuid);
  else memory.inventories.set(uuid, after);
}
