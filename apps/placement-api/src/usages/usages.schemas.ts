import { extend } from '../platform/schema-extend.js';

/** The query string of GET /usages. */
export const GET_USAGES_V1_9 = {
  type: 'object',
  properties: {
    project_id: { type: 'string', minLength: 1, maxLength: 255 },
    user_id: { type: 'string', minLength: 1, maxLength: 255 },
  },
  required: ['project_id'],
  additionalProperties: false,
};

/** upstream's CONSUMER_TYPE_GET_PATTERN, unanchored 'all' included: 'allx' is a type name. */
const CONSUMER_TYPE_GET_PATTERN = '^[A-Z0-9_]+$|^all|^unknown$';

export const GET_USAGES_V1_38 = extend(GET_USAGES_V1_9, (s) => {
  s.properties.consumer_type = { type: 'string', pattern: CONSUMER_TYPE_GET_PATTERN, minLength: 1, maxLength: 255 };
});
