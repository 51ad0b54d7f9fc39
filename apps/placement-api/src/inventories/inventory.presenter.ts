import type { FastifyReply } from 'fastify';
import type { Inventories, Inventory } from '#domain/index.js';
import { setLastModified } from '../platform/cache-headers.js';
import { Version } from '../platform/microversion.js';
import { providerUrl } from '../resource-providers/resource-provider.presenter.js';

export const inventoryUrl = (uuid: string, resourceClass: string) => `${providerUrl(uuid)}/inventories/${resourceClass}`;

/** Upstream's OUTPUT_INVENTORY_FIELDS, in its order. */
export function presentInventory(inventory: Inventory, generation?: number) {
  const { total, reserved, min_unit, max_unit, step_size, allocation_ratio } = inventory;
  const body: Record<string, number> = { total, reserved, min_unit, max_unit, step_size, allocation_ratio };
  // Upstream tests the generation for truth, so a generation of 0 is left out.
  if (generation) body.resource_provider_generation = generation;
  return body;
}

export function presentInventories(generation: number, inventories: Inventories) {
  const byClass: Record<string, unknown> = {};
  for (const [rc, inventory] of Object.entries(inventories)) byClass[rc] = presentInventory(inventory);
  return { resource_provider_generation: generation, inventories: byClass };
}

/**
 * From 1.15. With no inventory at all upstream has nothing to take a time from and sends
 * Cache-Control without Last-Modified; records just written count as modified now.
 */
export function setInventoryCaching(reply: FastifyReply, version: Version, modified: Date | null, empty: boolean): void {
  if (!empty) return setLastModified(reply, version, modified);
  if (version.matches('1.15')) reply.header('cache-control', 'no-cache');
}
