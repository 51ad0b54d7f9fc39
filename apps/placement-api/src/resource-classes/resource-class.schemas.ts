import { extend } from '../platform/schema-extend.js';

/** Custom resource class and trait names: upstream's common.CUSTOM_RC_PATTERN. */
export const CUSTOM_NAME_PATTERN = '^CUSTOM_[A-Z0-9_]+$';

export const POST_RC_V1_2 = {
  type: 'object',
  properties: { name: { type: 'string', pattern: CUSTOM_NAME_PATTERN, maxLength: 255 } },
  required: ['name'],
  additionalProperties: false,
};
export const PUT_RC_V1_2 = extend(POST_RC_V1_2, () => undefined);
