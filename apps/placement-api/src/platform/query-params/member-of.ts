import { isUuidLike } from '../json-body.js';
import { Version } from '../microversion.js';
import { httpBadRequest } from '../placement-error.js';
import { unique } from '#domain/shared/unique.js';

/** Repeating member_of (each one ANDed) is legal from this version. */
const MULTIPLE_MEMBER_OF_SINCE = '1.24';
/** `!uuid` and `!in:uuid,...` (forbidden aggregates) are legal from this version. */
const FORBIDDEN_AGGREGATES_SINCE = '1.32';

export interface MemberOf {
  /** Each inner list is one member_of: at least one of its aggregates is required. */
  readonly required: string[][];
  /** The provider must be in none of these. */
  readonly forbidden: string[];
}

/**
 * util.normalize_member_of_qs_param: one value is `uuid`, `!uuid`, `in:uuid,...` or `!in:uuid,...`.
 * The `in:` forms exist from 1.3 on, so no version gates them.
 */
export function parseMemberOfValue(value: string): { required: string[]; forbidden: string[] } {
  if (value.includes(',') && !(value.startsWith('in:') || value.startsWith('!in:'))) {
    throw httpBadRequest(
      `Multiple values for 'member_of' must be prefixed with the 'in:' or '!in:' keyword using the valid microversion. Got: ${value}`);
  }
  let required: string[] = [];
  let forbidden: string[] = [];
  if (value.startsWith('!in:')) forbidden = unique(value.slice(4).split(','));
  else if (value.startsWith('!')) forbidden = [value.slice(1)];
  else if (value.startsWith('in:')) required = unique(value.slice(3).split(','));
  else required = [value];
  for (const uuid of [...required, ...forbidden]) {
    if (!isUuidLike(uuid)) {
      throw httpBadRequest(`Invalid query string parameters: Expected 'member_of' parameter to contain valid UUID(s). Got: ${uuid}`);
    }
  }
  return { required, forbidden };
}

/**
 * util.normalize_member_of_qs_params over every `member_of{suffix}` value of a request.
 * `suffix` names a granular request group ('' for the unnamed one); it appears in the messages.
 */
export function parseMemberOf(values: readonly string[], version: Version, suffix = ''): MemberOf {
  if (!version.matches(MULTIPLE_MEMBER_OF_SINCE) && values.length > 1) {
    throw httpBadRequest(`Multiple member_of${suffix} parameters are not supported`);
  }
  const required: string[][] = [];
  const forbidden = new Set<string>();
  for (const value of values) {
    const parsed = parseMemberOfValue(value);
    if (parsed.required.length > 0) required.push(parsed.required);
    if (parsed.forbidden.length > 0) {
      if (!version.matches(FORBIDDEN_AGGREGATES_SINCE)) {
        throw httpBadRequest(`Forbidden member_of${suffix} parameters are not supported in the specified microversion`);
      }
      parsed.forbidden.forEach((uuid) => forbidden.add(uuid));
    }
  }
  return { required, forbidden: [...forbidden] };
}
