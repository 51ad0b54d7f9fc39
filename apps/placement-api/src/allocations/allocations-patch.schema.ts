import { UUID_PATTERN } from './allocation.schemas.js';

/** The media type of RFC 7396; PATCH refuses any other (415), as a merge patch is not a whole document. */
export const MERGE_PATCH = 'application/merge-patch+json';

const RC_PATTERN = '^[A-Z0-9_]+$';
const EXTERNAL_ID = { type: 'string', minLength: 1, maxLength: 255 };

/**
 * PATCH /ledger/allocations/{consumer}: the members of GET /allocations/{consumer} (1.38 and up)
 * a merge patch may touch. null is only allowed where it means "remove": a class, a provider,
 * a provider's whole resources. consumer_generation is required, and an integer, since a patch
 * never creates a consumer (PUT's null "this consumer is new" has no place here).
 */
export const ALLOCATIONS_PATCH = {
  type: 'object',
  properties: {
    consumer_generation: { type: 'integer' },
    allocations: {
      type: 'object',
      patternProperties: {
        [UUID_PATTERN]: {
          type: ['object', 'null'],
          properties: {
            resources: {
              type: ['object', 'null'],
              patternProperties: { [RC_PATTERN]: { type: ['integer', 'null'], minimum: 1 } },
              additionalProperties: false,
            },
            // Shown by GET; accepted and ignored, as PUT ignores it.
            generation: { type: ['integer', 'null'] },
          },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
    project_id: EXTERNAL_ID,
    user_id: EXTERNAL_ID,
    consumer_type: { type: 'string', pattern: RC_PATTERN, minLength: 1, maxLength: 255 },
  },
  required: ['consumer_generation'],
  additionalProperties: false,
};
