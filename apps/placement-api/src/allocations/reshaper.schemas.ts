import { PUT_INVENTORIES } from '../inventories/inventory.schemas.js';
import type { Schema } from '../platform/json-body.js';
import { Version } from '../platform/microversion.js';
import { extend } from '../platform/schema-extend.js';
import { POST_ALLOCATIONS_V1_28, POST_ALLOCATIONS_V1_34, POST_ALLOCATIONS_V1_38, UUID_PATTERN } from './allocation.schemas.js';

/** Upstream's schemas/reshaper.py: POST /allocations' body (possibly empty) beside PUT inventories per provider. */
const reshaper = (allocations: Schema): Schema => ({
  type: 'object',
  properties: {
    inventories: {
      type: 'object',
      patternProperties: { [UUID_PATTERN]: PUT_INVENTORIES },
      // At least one provider: otherwise there is nothing to reshape.
      minProperties: 1,
      additionalProperties: false,
    },
    allocations: extend(allocations, (s) => (s.minProperties = 0)),
  },
  required: ['inventories', 'allocations'],
  additionalProperties: false,
});

const POST_RESHAPER_V1_30 = reshaper(POST_ALLOCATIONS_V1_28);
const POST_RESHAPER_V1_34 = reshaper(POST_ALLOCATIONS_V1_34);
const POST_RESHAPER_V1_38 = reshaper(POST_ALLOCATIONS_V1_38);

export function reshaperSchemaFor(version: Version): Schema {
  if (version.matches('1.38')) return POST_RESHAPER_V1_38;
  if (version.matches('1.34')) return POST_RESHAPER_V1_34;
  return POST_RESHAPER_V1_30;
}
