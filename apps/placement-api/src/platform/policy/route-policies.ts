/**
 * Where a rule's target comes from: who owns what the route shows.
 * - caller: the caller's own project and user, as upstream's handlers pass by default; used where
 *   what is shown belongs to no project (providers, classes, traits, candidates).
 * - asked: the project_id of the query, as upstream's GET /usages judges it.
 * - data: the handler judges what it read, through the request's Access (access.ts): a
 *   consumer's own project and user, each event's, each row's. The guard only refuses a caller
 *   who could not see even its own project's data.
 */
type TargetSource = 'caller' | 'asked' | 'data';

/** What a route's handler passes to context.can() upstream, and against what. */
export interface RoutePolicy {
  readonly rule: string;
  readonly target: TargetSource;
}

const caller = (rule: string): RoutePolicy => ({ rule, target: 'caller' });
const asked = (rule: string): RoutePolicy => ({ rule, target: 'asked' });
const data = (rule: string): RoutePolicy => ({ rule, target: 'data' });

/**
 * Every route upstream declares (handler.py ROUTE_DECLARATIONS) with the rule its handler
 * checks, then ours. Keys are "METHOD pattern" as Fastify registers the route; parameter names
 * do not matter (see routeKey). null: the route needs no policy. A route missing here is refused.
 */
export const ROUTE_POLICIES: Readonly<Record<string, RoutePolicy | null>> = {
  'GET /': null,

  'GET /resource_classes': caller('placement:resource_classes:list'),
  'POST /resource_classes': caller('placement:resource_classes:create'),
  'GET /resource_classes/:name': caller('placement:resource_classes:show'),
  'PUT /resource_classes/:name': caller('placement:resource_classes:update'),
  'DELETE /resource_classes/:name': caller('placement:resource_classes:delete'),

  'GET /resource_providers': caller('placement:resource_providers:list'),
  'POST /resource_providers': caller('placement:resource_providers:create'),
  'GET /resource_providers/:uuid': caller('placement:resource_providers:show'),
  'PUT /resource_providers/:uuid': caller('placement:resource_providers:update'),
  'DELETE /resource_providers/:uuid': caller('placement:resource_providers:delete'),

  'GET /resource_providers/:uuid/inventories': caller('placement:resource_providers:inventories:list'),
  'POST /resource_providers/:uuid/inventories': caller('placement:resource_providers:inventories:create'),
  'PUT /resource_providers/:uuid/inventories': caller('placement:resource_providers:inventories:update'),
  'DELETE /resource_providers/:uuid/inventories': caller('placement:resource_providers:inventories:delete'),
  'GET /resource_providers/:uuid/inventories/:resource_class': caller('placement:resource_providers:inventories:show'),
  'PUT /resource_providers/:uuid/inventories/:resource_class': caller('placement:resource_providers:inventories:update'),
  'DELETE /resource_providers/:uuid/inventories/:resource_class': caller('placement:resource_providers:inventories:delete'),

  'GET /resource_providers/:uuid/usages': caller('placement:resource_providers:usages'),
  'GET /resource_providers/:uuid/aggregates': caller('placement:resource_providers:aggregates:list'),
  'PUT /resource_providers/:uuid/aggregates': caller('placement:resource_providers:aggregates:update'),
  // Upstream judges against the caller's own project; we judge each consumer against its own, as
  // GET /allocations/{consumer}, so that a rule opened to project readers shows each its own.
  'GET /resource_providers/:uuid/allocations': data('placement:resource_providers:allocations:list'),

  'GET /resource_providers/:uuid/traits': caller('placement:resource_providers:traits:list'),
  'PUT /resource_providers/:uuid/traits': caller('placement:resource_providers:traits:update'),
  'DELETE /resource_providers/:uuid/traits': caller('placement:resource_providers:traits:delete'),

  // Upstream judges against the caller's own project; we judge against the consumer's, so that a
  // rule opened to project readers shows each project only its own consumers, and one opened to
  // its members lets each write only its own: every consumer a write touches is judged against the
  // project and user holding it before and those it is charged to after (claim-access.ts). The
  // providers it claims on are no project's: the guard judges the caller's own project for them.
  'POST /allocations': data('placement:allocations:manage'),
  'GET /allocations/:consumer_uuid': data('placement:allocations:list'),
  'PUT /allocations/:consumer_uuid': data('placement:allocations:update'),
  'DELETE /allocations/:consumer_uuid': data('placement:allocations:delete'),

  'GET /allocation_candidates': caller('placement:allocation_candidates:list'),

  'GET /traits': caller('placement:traits:list'),
  'GET /traits/:name': caller('placement:traits:show'),
  'PUT /traits/:name': caller('placement:traits:update'),
  'DELETE /traits/:name': caller('placement:traits:delete'),

  // usage.get_total_usages checks against the project asked about, not the caller's
  // (webob's GET.get: the last value of a repeated parameter; None when absent).
  'GET /usages': asked('placement:usages'),

  // Its inventories are judged against the caller, its consumers each against their own, as PUT /allocations.
  'POST /reshaper': data('placement:reshaper:reshape'),

  // Ours, outside upstream's URL space and its rules: probes and the metrics scrape, which the
  // pipeline lets in without a token (they name no project unless the operator asks, see
  // operations/), and the API description.
  'GET /healthz': null,
  'GET /readyz': null,
  'GET /metrics': null,
  'GET /openapi.json': caller('placement:api_description:show'),

  // Ours: the ledger's histories, feed and audits, judged against the data they show.
  'GET /ledger/resource_providers/:uuid/history': data('placement:ledger:resource_providers:history'),
  'GET /ledger/consumers/:uuid/history': data('placement:ledger:consumers:history'),
  'GET /ledger/events': data('placement:ledger:events'),
  'GET /ledger/audit/provider-claims': data('placement:ledger:audit:provider_claims'),
  'GET /ledger/audit/request/:request_id': data('placement:ledger:audit:request'),
  'GET /ledger/audit/stale-consumers': data('placement:ledger:audit:stale_consumers'),

  // Ours: time travel and explain, each under the rule of the GET it mirrors and its target, so
  // they can never show more than that GET.
  'GET /ledger/as-of/resource_providers/:uuid': caller('placement:resource_providers:show'),
  'GET /ledger/as-of/resource_providers/:uuid/inventories': caller('placement:resource_providers:inventories:list'),
  'GET /ledger/as-of/resource_providers/:uuid/traits': caller('placement:resource_providers:traits:list'),
  'GET /ledger/as-of/resource_providers/:uuid/aggregates': caller('placement:resource_providers:aggregates:list'),
  'GET /ledger/as-of/resource_providers/:uuid/usages': caller('placement:resource_providers:usages'),
  'GET /ledger/as-of/resource_providers/:uuid/allocations': data('placement:resource_providers:allocations:list'),
  'GET /ledger/as-of/allocations/:consumer_uuid': data('placement:allocations:list'),
  'GET /ledger/as-of/usages': asked('placement:usages'),
  'GET /ledger/explain/allocation_candidates': caller('placement:allocation_candidates:list'),

  // Ours: a merge patch of a consumer's allocations writes what PUT /allocations/{consumer} writes, under its rule and target.
  'PATCH /ledger/allocations/:consumer_uuid': data('placement:allocations:update'),

  // Ours: undoing an incident writes to any provider and consumer in scope and shows them in its
  // plan: an operator's act by default, and judged against each stream's owner, so that a rule
  // opened to a project lets it take back that project's consumers only.
  'POST /ledger/revert': data('placement:ledger:revert'),
  'POST /ledger/restore': data('placement:ledger:restore'),

  // Ours: usage over time, judged against the project asked about, as GET /usages. The pages
  // (dashboard, console) hold no data and a browser opens them without a token; their calls carry one.
  'GET /ledger/dashboard': null,
  'GET /ledger/usage': asked('placement:ledger:usage'),
  'GET /ledger/usage/totals': asked('placement:ledger:usage'),
  'GET /ledger/console': null,
  // Providers and the cloud's figures belong to no project, as a provider's usages; a tree's
  // holders and the top projects are each judged against their own project, so a rule opened to
  // readers shows each only its own.
  'GET /ledger/resource_providers/:uuid/tree': data('placement:ledger:resource_providers:tree'),
  'GET /ledger/capacity': data('placement:ledger:capacity'),
};

/** "METHOD /a/:/b": a route's identity whatever its parameters are called. */
export function routeKey(method: string, pattern: string): string {
  const path = pattern.length > 1 ? pattern.replace(/\/+$/, '') : pattern;
  return `${method.toUpperCase()} ${path.replace(/:[^/]+/g, ':')}`;
}

const BY_KEY = new Map(Object.entries(ROUTE_POLICIES).map(([key, policy]) => {
  const [method, pattern] = key.split(' ');
  return [routeKey(method, pattern), policy] as const;
}));

/**
 * The policy of a registered route; undefined when the route is not in the table.
 * HEAD is Fastify's automatic twin of a GET and is judged as that GET.
 */
export function policyForRoute(method: string, pattern: string): RoutePolicy | null | undefined {
  const effective = method.toUpperCase() === 'HEAD' ? 'GET' : method;
  return BY_KEY.get(routeKey(effective, pattern));
}
