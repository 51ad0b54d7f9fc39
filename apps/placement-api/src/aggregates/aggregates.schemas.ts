import { extend } from '../platform/schema-extend.js';

const AGGREGATES_LIST = {
  type: 'array',
  items: { type: 'string', format: 'uuid' },
  uniqueItems: true,
};

/** Before 1.19 the body is the bare list. */
export const PUT_AGGREGATES_V1_1 = extend(AGGREGATES_LIST, () => undefined);

export const PUT_AGGREGATES_V1_19 = {
  type: 'object',
  properties: {
    aggregates: extend(AGGREGATES_LIST, () => undefined),
    resource_provider_generation: { type: 'integer' },
  },
  required: ['aggregates', 'resource_provider_generation'],
  additionalProperties: false,
};
