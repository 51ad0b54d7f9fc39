import { extend } from '../platform/schema-extend.js';

/** db constants upstream validates against: a signed 32-bit column and a single-precision float. */
const MAX_INT = 2147483647;
const SQL_SP_FLOAT_MAX = 3.40282e38;
const RC_PATTERN = '^[A-Z0-9_]+$';

const bounded = (minimum: number) => ({ type: 'integer', maximum: MAX_INT, minimum });

/** PUT /resource_providers/{uuid}/inventories/{rc}. */
export const BASE_INVENTORY = {
  type: 'object',
  properties: {
    resource_provider_generation: { type: 'integer' },
    total: bounded(1),
    reserved: bounded(0),
    min_unit: bounded(1),
    max_unit: bounded(1),
    step_size: bounded(1),
    allocation_ratio: { type: 'number', maximum: SQL_SP_FLOAT_MAX },
  },
  required: ['total', 'resource_provider_generation'],
  additionalProperties: false,
};

/** POST takes the class in the body and no generation (a generation sent is ignored). */
export const POST_INVENTORY = extend(BASE_INVENTORY, (s) => {
  s.properties.resource_class = { type: 'string', pattern: RC_PATTERN };
  s.required = ['total', 'resource_class'];
});

const PUT_INVENTORY_RECORD = extend(BASE_INVENTORY, (s) => (s.required = ['total']));

/**
 * PUT /resource_providers/{uuid}/inventories. Upstream leaves records under keys outside the
 * pattern unchecked and then fails with a 500; checking them too turns that into a 400, while a
 * well-formed record under such a key still reaches the unknown-class 400 as upstream.
 */
export const PUT_INVENTORIES = {
  type: 'object',
  properties: {
    resource_provider_generation: { type: 'integer' },
    inventories: { type: 'object', patternProperties: { [RC_PATTERN]: PUT_INVENTORY_RECORD }, additionalProperties: PUT_INVENTORY_RECORD },
  },
  required: ['resource_provider_generation', 'inventories'],
  additionalProperties: false,
};
