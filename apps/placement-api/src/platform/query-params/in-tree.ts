import { isUuidLike } from '../json-body.js';
import { httpBadRequest } from '../placement-error.js';

/** util.normalize_in_tree_qs_params: a provider uuid, surrounding whitespace dropped. */
export function parseInTree(value: string): string {
  const uuid = value.trim();
  if (!isUuidLike(uuid)) {
    throw httpBadRequest(`Invalid query string parameters: Expected 'in_tree' parameter to be a format of uuid. Got: ${value}`);
  }
  return uuid;
}
