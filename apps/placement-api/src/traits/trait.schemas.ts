import { extend } from '../platform/schema-extend.js';
import { CUSTOM_NAME_PATTERN } from '../resource-classes/resource-class.schemas.js';

const TRAIT = { type: 'string', minLength: 1, maxLength: 255 };
export const CUSTOM_TRAIT = extend(TRAIT, (s) => (s.pattern = CUSTOM_NAME_PATTERN));

export const SET_PROVIDER_TRAITS = {
  type: 'object',
  properties: {
    traits: { type: 'array', items: TRAIT },
    resource_provider_generation: { type: 'integer' },
  },
  required: ['traits', 'resource_provider_generation'],
  additionalProperties: false,
};

export const LIST_TRAITS_QUERY = {
  type: 'object',
  properties: { name: { type: 'string' }, associated: { type: 'string' } },
  additionalProperties: false,
};
