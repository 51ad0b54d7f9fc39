import { ErrorCode } from '#domain/index.js';
import type { RequestGroup } from '#placement/candidates/request.js';
import { Version } from '../platform/microversion.js';
import { httpBadRequest } from '../platform/placement-error.js';
import { pyRepr } from '../platform/python-repr.js';
import { parseInTree } from '../platform/query-params/in-tree.js';
import { parseMemberOf } from '../platform/query-params/member-of.js';
import { parseRequiredTraits } from '../platform/query-params/required-traits.js';
import { parseResources } from '../platform/query-params/resources.js';
import { groupKeyPattern } from './allocation-candidates.schemas.js';

/** From here, groups need not carry resources as long as same_subtree names them. */
const SAME_SUBTREE_SINCE = '1.36';

type Draft = { -readonly [K in keyof RequestGroup]: RequestGroup[K] };

const pyList = (items: readonly string[]) => `[${items.map((item) => pyRepr(item)).join(', ')}]`;

/**
 * lib.RequestGroup._parse_request_items: every key in query order; a suffix makes its group on
 * first sight. A repeated resources key keeps its last value, but each value must parse.
 */
function draftGroups(query: URLSearchParams, version: Version): Map<string, Draft> {
  const pattern = groupKeyPattern(version);
  const groups = new Map<string, Draft>();
  for (const [key, value] of query) {
    const match = pattern.exec(key);
    if (!match) continue;
    const [, prefix, suffix = ''] = match;
    let draft = groups.get(suffix);
    if (!draft) {
      draft = { suffix, resources: [], requiredTraits: [], forbiddenTraits: [], memberOf: [], forbiddenAggregates: [], inTree: null };
      groups.set(suffix, draft);
    }
    if (prefix === 'resources') draft.resources = [...parseResources(value)];
    else if (prefix === 'required') {
      const traits = parseRequiredTraits(query.getAll(key), version);
      draft.requiredTraits = traits.required;
      draft.forbiddenTraits = traits.forbidden;
    } else if (prefix === 'member_of') {
      const aggregates = parseMemberOf(query.getAll(key), version, suffix);
      draft.memberOf = aggregates.required;
      draft.forbiddenAggregates = aggregates.forbidden;
    } else draft.inTree = parseInTree(value);
  }
  return groups;
}

/** From 1.36 a group may be resourceless when same_subtree names it, but not every group. */
function checkResourceless(groups: Map<string, Draft>, sameSubtrees: readonly string[][]): void {
  const resourceless = [...groups.values()].filter((g) => g.resources.length === 0).map((g) => g.suffix);
  if (resourceless.length === groups.size) {
    throw httpBadRequest('There must be at least one resources or resources[$S] parameter.', ErrorCode.QUERYPARAM_MISSING_VALUE);
  }
  const inSubtrees = new Set(sameSubtrees.flat());
  const loose = resourceless.filter((s) => !inSubtrees.has(s));
  if (loose.length > 0) {
    throw httpBadRequest(
      `Resourceless suffixed group request should be specified in \`same_subtree\` query param: bad group(s) - ${pyList(loose)}.`,
      ErrorCode.QUERYPARAM_BAD_VALUE);
  }
  const unknown = [...inSubtrees].filter((s) => !groups.has(s));
  if (unknown.length > 0) {
    throw httpBadRequest(
      `Real suffixes should be specified in \`same_subtree\`: ${pyList(unknown)} not found in ${pyList([...groups.keys()])}.`,
      ErrorCode.QUERYPARAM_BAD_VALUE);
  }
}

/** Before 1.36 traits and member_of must come with resources, and every group needs resources. */
function checkOrphans(groups: Map<string, Draft>): void {
  const all = [...groups.values()];
  const orphanTraits = all.filter((g) => g.requiredTraits.length > 0 && g.resources.length === 0).map((g) => `required${g.suffix}`);
  if (orphanTraits.length > 0) {
    throw httpBadRequest(
      `All traits parameters must be associated with resources.  Found the following orphaned traits keys: ${orphanTraits.join(', ')}`);
  }
  const orphanAggregates = all.filter((g) => g.resources.length === 0 && (g.memberOf.length > 0 || g.forbiddenAggregates.length > 0))
    .map((g) => `member_of${g.suffix}`);
  if (orphanAggregates.length > 0) {
    throw httpBadRequest(
      `All member_of parameters must be associated with resources. Found the following orphaned member_of keys: ${orphanAggregates.join(', ')}`);
  }
  if (!all.every((g) => g.resources.length > 0)) throw httpBadRequest('All request groups must specify resources.');
  if (all.length === 0) throw httpBadRequest('At least one request group (`resources` or `resources{$S}`) is required.');
}

/** An any-of set made only of forbidden traits can never be met. */
function checkConflicts(groups: Map<string, Draft>): void {
  const conflicts: string[] = [];
  for (const g of groups.values()) {
    for (const anyOf of g.requiredTraits) {
      if (anyOf.every((t) => g.forbiddenTraits.includes(t))) conflicts.push(`required${g.suffix}: (${[...anyOf].sort().join(', ')})`);
    }
  }
  if (conflicts.length > 0) {
    throw httpBadRequest(`Conflicting required and forbidden traits found in the following traits keys: ${conflicts.sort().join(', ')}`);
  }
}

/** lib.RequestGroup.dict_from_request: the groups of a query, in the order their suffixes appear. */
export function parseRequestGroups(query: URLSearchParams, version: Version, sameSubtrees: readonly string[][]): RequestGroup[] {
  const groups = draftGroups(query, version);
  if (version.matches(SAME_SUBTREE_SINCE)) checkResourceless(groups, sameSubtrees);
  else checkOrphans(groups);
  if (version.matches('1.22')) checkConflicts(groups);
  return [...groups.values()];
}
