import type { ProviderFilters } from '#placement/index.js';
import { Version } from '../platform/microversion.js';
import { parseMemberOf } from '../platform/query-params/member-of.js';
import { validateQueryParams } from '../platform/query-params/query-string.js';
import { parseRequiredTraits } from '../platform/query-params/required-traits.js';
import { parseResources } from '../platform/query-params/resources.js';
import {
  LIST_PROVIDERS_V1_0, LIST_PROVIDERS_V1_14, LIST_PROVIDERS_V1_18, LIST_PROVIDERS_V1_3, LIST_PROVIDERS_V1_4,
} from './resource-provider.schemas.js';

function schemaFor(version: Version) {
  if (version.matches('1.18')) return LIST_PROVIDERS_V1_18;
  if (version.matches('1.14')) return LIST_PROVIDERS_V1_14;
  if (version.matches('1.4')) return LIST_PROVIDERS_V1_4;
  if (version.matches('1.3')) return LIST_PROVIDERS_V1_3;
  return LIST_PROVIDERS_V1_0;
}

/**
 * GET /resource_providers query string -> filters, checked in upstream's order (schema, member_of,
 * required, resources), so that a query with several faults reports the same one.
 */
export function parseProviderFilters(query: URLSearchParams, version: Version): ProviderFilters {
  const single = validateQueryParams(query, schemaFor(version));
  const memberOf = query.has('member_of') ? parseMemberOf(query.getAll('member_of'), version) : undefined;
  const traits = query.has('required') ? parseRequiredTraits(query.getAll('required'), version) : undefined;
  const resources = single.resources !== undefined ? parseResources(single.resources) : undefined;
  // Upstream filters on name, uuid and in_tree only when they are non-empty.
  return {
    name: single.name || undefined,
    uuid: single.uuid || undefined,
    inTree: single.in_tree || undefined,
    memberOf: memberOf?.required,
    forbiddenAggregates: memberOf?.forbidden,
    requiredTraits: traits?.required,
    forbiddenTraits: traits?.forbidden,
    resources: resources && [...resources],
  };
}
