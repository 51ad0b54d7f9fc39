import { CandidateRequest, RequestGroup } from '../request.js';

/** A request group from the few fields a case cares about; the rest empty, as the parser leaves them. */
export function group(suffix: string, fields: Partial<Omit<RequestGroup, 'suffix'>> = {}): RequestGroup {
  return { suffix, resources: [], requiredTraits: [], forbiddenTraits: [], memberOf: [], forbiddenAggregates: [], inTree: null, ...fields };
}

export function candidateRequest(groups: RequestGroup[], fields: Partial<Omit<CandidateRequest, 'groups'>> = {}): CandidateRequest {
  return { groups, limit: null, groupPolicy: null, rootRequired: [], rootForbidden: [], sameSubtrees: [], nestedAware: true, ...fields };
}
