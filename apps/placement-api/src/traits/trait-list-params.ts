import type { TraitFilters } from '#placement/traits/index.js';
import { validateJson } from '../platform/json-body.js';
import { httpBadRequest } from '../platform/placement-error.js';
import { LIST_TRAITS_QUERY } from './trait.schemas.js';

/** GET /traits query string -> filters, with upstream's messages. */
export function parseTraitFilters(query: URLSearchParams): TraitFilters {
  // As webob's dict(req.GET): a repeated key keeps its last value.
  const single: Record<string, string> = {};
  for (const [key, value] of query) single[key] = value;
  try {
    validateJson(single, LIST_TRAITS_QUERY);
  } catch (error) {
    throw httpBadRequest(`Invalid query string parameters: ${(error as Error).message.replace(/^JSON does not validate: /, '')}`);
  }
  const filters: { nameIn?: string[]; prefix?: string; associated?: boolean } = {};
  if (single.name !== undefined) {
    const at = single.name.indexOf(':');
    if (at < 0) {
      throw httpBadRequest('Badly formatted name parameter. Expected name query string parameter in form: '
        + `?name=[in|startswith]:[name1,name2|prefix]. Got: "${single.name}"`);
    }
    const [op, value] = [single.name.slice(0, at), single.name.slice(at + 1)];
    // Any other operator filters nothing, as upstream.
    if (op === 'in') filters.nameIn = value.split(',');
    else if (op === 'startswith') filters.prefix = value;
  }
  if (single.associated !== undefined) {
    const associated = single.associated.toLowerCase();
    if (associated !== 'true' && associated !== 'false') {
      throw httpBadRequest('The query parameter "associated" only accepts "true" or "false"');
    }
    filters.associated = associated === 'true';
  }
  return filters;
}
