import { ErrorCode } from '#domain/index.js';
import type { CandidateRequest, GroupPolicy, RequestGroup } from '#placement/candidates/request.js';
import { Version } from '../platform/microversion.js';
import { httpBadRequest } from '../platform/placement-error.js';
import { pyRepr } from '../platform/python-repr.js';
import { pythonInt } from '../platform/query-params/resources.js';
import { parseTraitsValue } from '../platform/query-params/required-traits.js';
import { validateQueryParams } from '../platform/query-params/query-string.js';
import { candidatesSchema } from './allocation-candidates.schemas.js';
import { parseRequestGroups } from './request-groups.js';
import { unique } from '#domain/shared/unique.js';
import { RecentlyUsed } from '#placement/shared/recently-used.js';

const NESTED_AWARE_SINCE = '1.29';

interface WideParams {
  readonly limit: number | null;
  readonly groupPolicy: GroupPolicy | null;
  readonly rootRequired: string[];
  readonly rootForbidden: string[];
  readonly sameSubtrees: string[][];
}

/** lib.RequestWideParams.from_request: a repeated limit or group_policy takes its first value. */
function wideParams(query: URLSearchParams): WideParams {
  const limitText = query.getAll('limit')[0];
  const limit = limitText === undefined ? null : pythonInt(limitText);
  // The schema checked only the last value; upstream would fail on a bad first one.
  if (limitText !== undefined && (limit === null || limit < 1)) throw httpBadRequest(`Invalid query string parameters: ${pyRepr(limitText)} does not match '^[1-9][0-9]*$'`);
  const policy = query.getAll('group_policy')[0];
  const rootValues = query.getAll('root_required');
  if (rootValues.length > 1) {
    throw httpBadRequest("Query parameter 'root_required' may be specified only once.", ErrorCode.ILLEGAL_DUPLICATE_QUERYPARAM);
  }
  let rootRequired: string[] = [];
  let rootForbidden: string[] = [];
  if (rootValues.length === 1) {
    // root_required takes no any-of form: upstream parses it with the legacy parser.
    const parsed = parseTraitsValue(rootValues[0], true, false);
    rootRequired = parsed.required.flat();
    rootForbidden = parsed.forbidden;
    const conflicts = rootForbidden.filter((t) => rootRequired.includes(t));
    if (conflicts.length > 0) {
      throw httpBadRequest(`Conflicting required and forbidden traits found in root_required: ${conflicts.join(', ')}`, ErrorCode.QUERYPARAM_BAD_VALUE);
    }
  }
  const sameSubtrees = query.getAll('same_subtree').map((value) => {
    const suffixes = unique(value.split(',').map((s) => s.trim()));
    if (suffixes.includes('')) {
      throw httpBadRequest('Empty string (unsuffixed group) can not be specified in `same_subtree` ', ErrorCode.QUERYPARAM_BAD_VALUE);
    }
    return suffixes;
  });
  return {
    limit,
    groupPolicy: policy === undefined ? null : policy === 'isolate' ? 'isolate' : 'none',
    rootRequired, rootForbidden, sameSubtrees,
  };
}

/**
 * The query string of GET /allocation_candidates -> a search request, refusing bad input with
 * upstream's messages and codes in upstream's order: schema, request-wide parameters, request
 * groups, then group_policy.
 */
export function parseCandidateQuery(query: URLSearchParams, version: Version): CandidateRequest {
  validateQueryParams(query, candidatesSchema(version));
  const wide = wideParams(query);
  const groups: RequestGroup[] = parseRequestGroups(query, version, wide.sameSubtrees);
  if (!wide.groupPolicy && groups.filter((g) => g.suffix !== '').length > 1) {
    throw httpBadRequest('The "group_policy" parameter is required when specifying more than one "resources{N}" parameter.');
  }
  return { groups, ...wide, nestedAware: version.matches(NESTED_AWARE_SINCE) };
}

/** Query strings parsed, per microversion: a scheduler asks a handful of questions (one per flavor) again and again. */
const PARSED_KEPT = 64;
const parsed = new RecentlyUsed<string, CandidateRequest>(PARSED_KEPT);

/**
 * parseCandidateQuery of a raw query string, the request kept for the next asker of the same text
 * at the same microversion (a refusal is not kept: it is thrown again each time). Every asker
 * shares the request, so it is frozen, all the way down.
 */
export function candidateRequestOf(queryString: string, version: Version): CandidateRequest {
  const key = `${version} ${queryString}`;
  let request = parsed.get(key);
  if (!request) parsed.set(key, (request = frozen(parseCandidateQuery(new URLSearchParams(queryString), version))));
  return request;
}

function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}
