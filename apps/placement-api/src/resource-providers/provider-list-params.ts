import type { ProviderFilters } from '../../../../libs/placement/src/index.js';
import { validateJson } from '../platform/json-body.js';
import { Version } from '../platform/microversion.js';
import { httpBadRequest } from '../platform/placement-error.js';
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

/** GET /resource_providers query string -> filters. */
export async function parseProviderFilters(query: URLSearchParams, version: Version): Promise<ProviderFilters> {
  const single: Record<string, string> = {};
  for (const [key, value] of query) single[key] = value;
  try {
    validateJson(single, schemaFor(version));
  } catch (error) {
    throw httpBadRequest(`Invalid query string parameters: ${(error as Error).message.replace(/^JSON does not validate: /, '')}`);
  }
  return {
    name: single.name,
    uuid: single.uuid,
    inTree: single.in_tree,
  };
}
