import type { ConsumerAllocationRow, ProviderAllocations } from '#placement/allocations/index.js';
import { Version } from '../platform/microversion.js';

/** GET /allocations/{consumer}: keyed by provider; who owns the consumer only when it holds something. */
export function presentConsumerAllocations(rows: readonly ConsumerAllocationRow[], version: Version) {
  const allocations: Record<string, { resources: Record<string, number>; generation: number }> = {};
  for (const row of rows) {
    const entry = (allocations[row.provider_uuid] ??= { resources: {}, generation: row.provider_generation });
    entry.resources[row.resource_class] = row.used;
  }
  const body: Record<string, unknown> = { allocations };
  if (rows.length === 0 || !version.matches('1.12')) return body;
  body.project_id = rows[0].project_id;
  body.user_id = rows[0].user_id;
  if (version.matches('1.28')) body.consumer_generation = rows[0].consumer_generation;
  if (version.matches('1.38')) body.consumer_type = rows[0].consumer_type ?? 'unknown';
  return body;
}

/** GET /resource_providers/{uuid}/allocations: keyed by consumer. */
export function presentProviderAllocations({ generation, rows }: ProviderAllocations, version: Version) {
  const allocations: Record<string, { resources: Record<string, number>; consumer_generation?: number }> = {};
  for (const row of rows) {
    const entry = (allocations[row.consumer_uuid] ??= { resources: {} });
    entry.resources[row.resource_class] = row.used;
    if (version.matches('1.28')) entry.consumer_generation = row.consumer_generation;
  }
  return { allocations, resource_provider_generation: generation };
}
