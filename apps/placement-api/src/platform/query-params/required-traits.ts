import { Version } from '../microversion.js';
import { httpBadRequest } from '../placement-error.js';
import { unique } from '#domain/shared/unique.js';

/** `!TRAIT` (forbidden traits) is legal from this version. */
const FORBIDDEN_TRAITS_SINCE = '1.22';
/** `in:A,B` (any-of) and repeating `required` (each one ANDed) are legal from this version. */
const ANY_TRAITS_SINCE = '1.39';

export interface RequiredTraits {
  /** Each inner list is an any-of group; every group must be satisfied. */
  readonly required: string[][];
  readonly forbidden: string[];
}

/** util.normalize_traits_qs_param: one `required{suffix}` value. */
export function parseTraitsValue(value: string, allowForbidden: boolean, allowAnyTraits: boolean): RequiredTraits {
  if (value.startsWith('in:')) {
    if (!allowAnyTraits) {
      throw httpBadRequest(
        `Invalid query string parameters: The format 'in:HW_CPU_X86_VMX,CUSTOM_MAGIC' only supported since microversion 1.39. Got: ${value}`);
    }
    const anyOf = unique(value.slice(3).split(',').map((t) => t.trim()));
    if (anyOf.some((t) => t === '')) {
      throw httpBadRequest(
        `Invalid query string parameters: Expected 'required' parameter value of the form: in:HW_CPU_X86_VMX,CUSTOM_MAGIC. Got an empty trait in: ${value}`);
    }
    if (anyOf.some((t) => t.startsWith('!'))) {
      throw httpBadRequest(
        `Invalid query string parameters: The format 'in:HW_CPU_X86_VMX,CUSTOM_MAGIC' does not support forbidden traits. Got: ${value}`);
    }
    return { required: [anyOf], forbidden: [] };
  }
  const all = value.split(',').map((t) => t.trim());
  // As upstream (a bug kept until a microversion fixes it): every leading '!' goes, so '!!FOO' forbids FOO.
  const forbidden = unique(all.filter((t) => t.startsWith('!')).map((t) => t.replace(/^!+/, '')));
  if ([...forbidden, ...all].some((t) => t === '')) {
    const form = allowForbidden ? 'HW_CPU_X86_VMX,!CUSTOM_MAGIC' : 'HW_CPU_X86_VMX,CUSTOM_MAGIC';
    throw httpBadRequest(
      `Invalid query string parameters: Expected 'required' parameter value of the form: ${form}. Got an empty trait in: ${value}`);
  }
  if (forbidden.length > 0 && !allowForbidden) {
    throw httpBadRequest(
      `Invalid query string parameters: Expected 'required' parameter value of the form: HW_CPU_X86_VMX,CUSTOM_MAGIC. Got: ${value}`);
  }
  const required = unique(all.filter((t) => !t.startsWith('!'))).map((t) => [t]);
  return { required, forbidden };
}

/**
 * util.normalize_traits_qs_params over every `required{suffix}` value of a request. Before 1.39
 * a repeated `required` is not an error: the last one wins.
 */
export function parseRequiredTraits(values: readonly string[], version: Version): RequiredTraits {
  const allowForbidden = version.matches(FORBIDDEN_TRAITS_SINCE);
  const allowAnyTraits = version.matches(ANY_TRAITS_SINCE);
  const required: string[][] = [];
  const forbidden = new Set<string>();
  for (const value of allowAnyTraits ? values : values.slice(-1)) {
    const parsed = parseTraitsValue(value, allowForbidden, allowAnyTraits);
    required.push(...parsed.required);
    parsed.forbidden.forEach((t) => forbidden.add(t));
  }
  return { required, forbidden: [...forbidden] };
}
