import { extend } from '../platform/schema-extend.js';

/** Upstream's schemas/allocation.py, version by version. */
const RC_PATTERN = '^[A-Z0-9_]+$';
export const UUID_PATTERN = '^[0-9a-fA-F-]{36}$';
const GROUP_PATTERN_1_33 = '[a-zA-Z0-9_-]{1,64}';

const RESOURCES = {
  type: 'object',
  minProperties: 1,
  patternProperties: { [RC_PATTERN]: { type: 'integer', minimum: 1 } },
  additionalProperties: false,
};
const EXTERNAL_ID = { type: 'string', minLength: 1, maxLength: 255 };

/** 1.0: a list of {resource_provider: {uuid}, resources}. */
export const PUT_ALLOCATIONS_V1_0 = {
  type: 'object',
  properties: {
    allocations: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          resource_provider: {
            type: 'object',
            properties: { uuid: { type: 'string', format: 'uuid' } },
            additionalProperties: false,
            required: ['uuid'],
          },
          resources: RESOURCES,
        },
        required: ['resource_provider', 'resources'],
        additionalProperties: false,
      },
    },
  },
  required: ['allocations'],
  additionalProperties: false,
};

export const PUT_ALLOCATIONS_V1_8 = extend(PUT_ALLOCATIONS_V1_0, (s) => {
  s.properties.project_id = EXTERNAL_ID;
  s.properties.user_id = EXTERNAL_ID;
  s.required.push('project_id', 'user_id');
});

/** 1.12: keyed by provider uuid, symmetric with GET /allocations/{consumer}. */
export const PUT_ALLOCATIONS_V1_12 = {
  type: 'object',
  properties: {
    allocations: {
      type: 'object',
      minProperties: 1,
      patternProperties: {
        [UUID_PATTERN]: {
          type: 'object',
          properties: { generation: { type: 'integer' }, resources: RESOURCES },
          required: ['resources'],
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
    project_id: EXTERNAL_ID,
    user_id: EXTERNAL_ID,
  },
  additionalProperties: false,
  required: ['allocations', 'project_id', 'user_id'],
};

/** In POST (and from 1.28 in PUT) an empty set releases everything the consumer holds. */
const DELETABLE_ALLOCATIONS = extend(PUT_ALLOCATIONS_V1_12, (s) => (s.properties.allocations.minProperties = 0));

export const POST_ALLOCATIONS_V1_13 = {
  type: 'object',
  minProperties: 1,
  additionalProperties: false,
  patternProperties: { [UUID_PATTERN]: DELETABLE_ALLOCATIONS },
};

export const PUT_ALLOCATIONS_V1_28 = extend(DELETABLE_ALLOCATIONS, (s) => {
  s.properties.consumer_generation = { type: ['integer', 'null'], additionalProperties: false };
  s.required.push('consumer_generation');
});
export const POST_ALLOCATIONS_V1_28 = extend(POST_ALLOCATIONS_V1_13, (s) => (s.patternProperties = { [UUID_PATTERN]: PUT_ALLOCATIONS_V1_28 }));

const MAPPINGS = {
  type: 'object',
  minProperties: 1,
  patternProperties: { [GROUP_PATTERN_1_33]: { type: 'array', minItems: 1, items: { type: 'string', format: 'uuid' } } },
};
export const PUT_ALLOCATIONS_V1_34 = extend(PUT_ALLOCATIONS_V1_28, (s) => (s.properties.mappings = MAPPINGS));
export const POST_ALLOCATIONS_V1_34 = extend(POST_ALLOCATIONS_V1_28, (s) => (s.patternProperties = { [UUID_PATTERN]: PUT_ALLOCATIONS_V1_34 }));

export const PUT_ALLOCATIONS_V1_38 = extend(PUT_ALLOCATIONS_V1_34, (s) => {
  s.properties.consumer_type = { type: 'string', pattern: RC_PATTERN, minLength: 1, maxLength: 255 };
  s.required.push('consumer_type');
});
export const POST_ALLOCATIONS_V1_38 = extend(POST_ALLOCATIONS_V1_34, (s) => (s.patternProperties = { [UUID_PATTERN]: PUT_ALLOCATIONS_V1_38 }));
