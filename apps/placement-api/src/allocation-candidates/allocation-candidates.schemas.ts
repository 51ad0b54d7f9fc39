import type { Schema } from '../platform/json-body.js';
import { Version } from '../platform/microversion.js';
import { extend } from '../platform/schema-extend.js';

/** Request group keys: a number suffix until 1.33, then 1-64 of [a-zA-Z0-9_-]. */
const GROUP_PAT = '[1-9][0-9]*';
const GROUP_PAT_1_33 = '[a-zA-Z0-9_-]{1,64}';
// Sorted, so a refusal lists the regexes in the order python-jsonschema prints them.
const groupPatterns = (prefixes: string[], suffix: string) =>
  Object.fromEntries([...prefixes].sort().map((prefix) => [`^${prefix}(${suffix})?$`, { type: 'string' }]));

const GET_CANDIDATES_V1_10: Schema = {
  type: 'object',
  properties: { resources: { type: 'string' } },
  required: ['resources'],
  additionalProperties: false,
};
const GET_CANDIDATES_V1_16 = extend(GET_CANDIDATES_V1_10, (s) => {
  s.properties.limit = { type: ['integer', 'string'], pattern: '^[1-9][0-9]*$', minimum: 1, minLength: 1 };
});
const GET_CANDIDATES_V1_17 = extend(GET_CANDIDATES_V1_16, (s) => (s.properties.required = { type: ['string'] }));
const GET_CANDIDATES_V1_21 = extend(GET_CANDIDATES_V1_17, (s) => (s.properties.member_of = { type: ['string'] }));
/** Granular groups replace the plain resources, required and member_of. */
const GET_CANDIDATES_V1_25 = extend(GET_CANDIDATES_V1_21, (s) => {
  delete s.properties.resources;
  delete s.required;
  delete s.properties.required;
  delete s.properties.member_of;
  s.patternProperties = groupPatterns(['resources', 'required', 'member_of'], GROUP_PAT);
  s.properties.group_policy = { type: 'string', enum: ['none', 'isolate'] };
});
const GET_CANDIDATES_V1_31 = extend(GET_CANDIDATES_V1_25, (s) => {
  s.patternProperties = groupPatterns(['resources', 'required', 'member_of', 'in_tree'], GROUP_PAT);
});
const GET_CANDIDATES_V1_33 = extend(GET_CANDIDATES_V1_31, (s) => {
  s.patternProperties = groupPatterns(['resources', 'required', 'member_of', 'in_tree'], GROUP_PAT_1_33);
});
const GET_CANDIDATES_V1_35 = extend(GET_CANDIDATES_V1_33, (s) => (s.properties.root_required = { type: ['string'] }));
const GET_CANDIDATES_V1_36 = extend(GET_CANDIDATES_V1_35, (s) => (s.properties.same_subtree = { type: ['string'] }));

const BY_VERSION: ReadonlyArray<readonly [string, Schema]> = [
  ['1.36', GET_CANDIDATES_V1_36], ['1.35', GET_CANDIDATES_V1_35], ['1.33', GET_CANDIDATES_V1_33], ['1.31', GET_CANDIDATES_V1_31],
  ['1.25', GET_CANDIDATES_V1_25], ['1.21', GET_CANDIDATES_V1_21], ['1.17', GET_CANDIDATES_V1_17], ['1.16', GET_CANDIDATES_V1_16],
];

export function candidatesSchema(version: Version): Schema {
  return BY_VERSION.find(([since]) => version.matches(since))?.[1] ?? GET_CANDIDATES_V1_10;
}

/** The group key pattern of a version: prefix, then the suffix it allows. */
export function groupKeyPattern(version: Version): RegExp {
  return new RegExp(`^(resources|required|member_of|in_tree)(${version.matches('1.33') ? GROUP_PAT_1_33 : GROUP_PAT})?$`);
}
