/** The query string of GET /ledger/usage and GET /ledger/usage/totals. */
export const USAGE_OVER_TIME_QUERY = {
  type: 'object',
  properties: {
    project_id: { type: 'string', minLength: 1, maxLength: 255 },
    start: { type: 'string', minLength: 1 },
    end: { type: 'string', minLength: 1 },
    bucket: { type: 'string', enum: ['hour', 'day'] },
    resource_class: { type: 'string', pattern: '^[A-Z0-9_]+$', maxLength: 255 },
    user_id: { type: 'string', minLength: 1, maxLength: 255 },
    // As GET /usages from 1.38: a type, 'unknown' for consumers without one, 'all' for every type.
    consumer_type: { type: 'string', pattern: '^[A-Z0-9_]+$|^all$|^unknown$', maxLength: 255 },
  },
  required: ['project_id', 'start'],
  additionalProperties: false,
};
