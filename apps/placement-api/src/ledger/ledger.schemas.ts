import { extend } from '../platform/schema-extend.js';
import { GET_USAGES_V1_38 } from '../usages/usages.schemas.js';

const COUNT = { type: 'string', pattern: '^[0-9]+$' };
const TOKEN = { type: 'string', minLength: 1, maxLength: 64 };

/** A stream's history: ?order=asc|desc&limit=N&marker=<from the previous page>. */
export const HISTORY_QUERY = {
  type: 'object',
  properties: { order: { type: 'string', enum: ['asc', 'desc'] }, limit: COUNT, marker: TOKEN },
  additionalProperties: false,
};

/** The global feed: ?after=<position>&limit=N, long-poll with wait=seconds, or stream=sse. */
export const FEED_QUERY = {
  type: 'object',
  properties: {
    after: TOKEN, limit: COUNT, wait: COUNT, stream: { type: 'string', enum: ['sse'] }, keepalive: COUNT,
  },
  additionalProperties: false,
};

export const PROVIDER_CLAIMS_QUERY = {
  type: 'object',
  properties: { provider: { type: 'string', format: 'uuid' } },
  required: ['provider'],
  additionalProperties: false,
};

export const STALE_CONSUMERS_QUERY = {
  type: 'object',
  properties: { older_than: { type: 'string', minLength: 1, maxLength: 64 }, limit: COUNT },
  required: ['older_than'],
  additionalProperties: false,
};

/** Time travel: as_of (a position token or an RFC 3339 time) is what the question is about. */
export const AS_OF_QUERY = {
  type: 'object',
  properties: { as_of: { type: 'string', minLength: 1, maxLength: 64 } },
  required: ['as_of'],
  additionalProperties: false,
};

/** GET /usages at its latest microversion, asked of a past moment. */
export const AS_OF_USAGES_QUERY = extend(GET_USAGES_V1_38, (schema) => {
  schema.properties.as_of = AS_OF_QUERY.properties.as_of;
  schema.required.push('as_of');
});
