import { extend } from '../platform/schema-extend.js';

export const POST_PROVIDER_V1_0 = {
  type: 'object',
  properties: { name: { type: 'string', maxLength: 200 }, uuid: { type: 'string', format: 'uuid' } },
  required: ['name'],
  additionalProperties: false,
};
export const PUT_PROVIDER_V1_0 = extend(POST_PROVIDER_V1_0, (s) => delete s.properties.uuid);
export const POST_PROVIDER_V1_14 = extend(POST_PROVIDER_V1_0, (s) => {
  s.properties.parent_provider_uuid = { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }] };
});
export const PUT_PROVIDER_V1_14 = extend(POST_PROVIDER_V1_14, (s) => delete s.properties.uuid);

export const LIST_PROVIDERS_V1_0 = {
  type: 'object',
  properties: { name: { type: 'string' }, uuid: { type: 'string', format: 'uuid' } },
  additionalProperties: false,
};
export const LIST_PROVIDERS_V1_3 = extend(LIST_PROVIDERS_V1_0, (s) => (s.properties.member_of = { type: 'string' }));
export const LIST_PROVIDERS_V1_4 = extend(LIST_PROVIDERS_V1_3, (s) => (s.properties.resources = { type: 'string' }));
export const LIST_PROVIDERS_V1_14 = extend(LIST_PROVIDERS_V1_4, (s) => (s.properties.in_tree = { type: 'string', format: 'uuid' }));
export const LIST_PROVIDERS_V1_18 = extend(LIST_PROVIDERS_V1_14, (s) => (s.properties.required = { type: 'string' }));
