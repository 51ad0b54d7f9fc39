import { isUuidLike } from '../platform/json-body.js';
import { Version } from '../platform/microversion.js';
import { httpBadRequest } from '../platform/placement-error.js';

export interface MemberOf {
  /** Each inner list is one member_of: the provider must be in at least one of its aggregates. */
  readonly memberOf: string[][];
  /** The provider must be in none of these. */
  readonly forbiddenAggregates: string[];
}

/** One member_of value: a uuid, `in:` a list, `!` a uuid or `!in:` a list (upstream's normalize_member_of_qs_param). */
export function parseMemberOfValue(value: string): { required: string[]; forbidden: string[] } {
  if (value.includes(',') && !value.startsWith('in:') && !value.startsWith('!in:')) {
    throw httpBadRequest(
      `Multiple values for 'member_of' must be prefixed with the 'in:' or '!in:' keyword using the valid microversion. Got: ${value}`,
    );
  }
  const unique = (list: string) => [...new Set(list.split(','))];
  let required: string[] = [];
  let forbidden: string[] = [];
  if (value.startsWith('!in:')) forbidden = unique(value.slice(4));
  else if (value.startsWith('!')) forbidden = [value.slice(1)];
  else if (value.startsWith('in:')) required = unique(value.slice(3));
  else required = [value];
  const invalid = [...required, ...forbidden].find((uuid) => !isUuidLike(uuid));
  if (invalid !== undefined) {
    throw httpBadRequest(`Invalid query string parameters: Expected 'member_of' parameter to contain valid UUID(s). Got: ${invalid}`);
  }
  return { required, forbidden };
}

/**
 * Every member_of of a query (or of one request group, with its suffix): several from 1.24
 * (ANDed), forbidden ones from 1.32. Shared by provider listing and allocation candidates.
 */
export function parseMemberOf(values: readonly string[], version: Version, suffix = ''): MemberOf {
  if (!version.matches('1.24') && values.length > 1) {
    throw httpBadRequest(`Multiple member_of${suffix} parameters are not supported`);
  }
  const memberOf: string[][] = [];
  const forbidden = new Set<string>();
  for (const value of values) {
    const parsed = parseMemberOfValue(value);
    if (parsed.required.length > 0) memberOf.push(parsed.required);
    if (parsed.forbidden.length > 0) {
      if (!version.matches('1.32')) {
        throw httpBadRequest(`Forbidden member_of${suffix} parameters are not supported in the specified microversion`);
      }
      parsed.forbidden.forEach((uuid) => forbidden.add(uuid));
    }
  }
  return { memberOf, forbiddenAggregates: [...forbidden] };
}
