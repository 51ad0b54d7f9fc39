import { PolicyValue } from './python-values.js';

/** What a route's handler passes to context.can() upstream. */
export interface RoutePolicy {
  readonly rule: string;
  /** The policy target; by default the caller's own {project_id, user_id}. */
  readonly target?: (query: URLSearchParams) => Record<string, PolicyValue>;
}

/**
 * Every route upstream declares (handler.py ROUTE_DECLARATIONS) with the rule its handler
 * checks. Keys are "METHOD pattern" as Fastify registers the route; parameter names do not
 * matter (see routeKey). null: the route needs no policy. A route missing here is refused.
 */
export const ROUTE_POLICIES: Readonly<Record<string, RoutePolicy | null>> = {
  'GET /': null,

  'GET /resource_classes': { rule: 'placement:resource_classes:list' },
  'POST /resource_classes': { rule: 'placement:resource_classes:create' },
  'GET /resource_classes/:name': { rule: 'placement:resource_classes:show' },
  'PUT /resource_classes/:name': { rule: 'placement:resource_classes:update' },
  'DELETE /resource_classes/:name': { rule: 'placement:resource_classes:delete' },

  'GET /resource_providers': { rule: 'placement:resource_providers:list' },
  'POST /resource_providers': { rule: 'placement:resource_providers:create' },
  'GET /resource_providers/:uuid': { rule: 'placement:resource_providers:show' },
  'PUT /resource_providers/:uuid': { rule: 'placement:resource_providers:update' },
  'DELETE /resource_providers/:uuid': { rule: 'placement:resource_providers:delete' },

  'GET /resource_providers/:uuid/inventories': { rule: 'placement:resource_providers:inventories:list' },
  'POST /resource_providers/:uuid/inventories': { rule: 'placement:resource_providers:inventories:create' },
  'PUT /resource_providers/:uuid/inventories': { rule: 'placement:resource_providers:inventories:update' },
  'DELETE /resource_providers/:uuid/inventories': { rule: 'placement:resource_providers:inventories:delete' },
  'GET /resource_providers/:uuid/inventories/:resource_class': { rule: 'placement:resource_providers:inventories:show' },
  'PUT /resource_providers/:uuid/inventories/:resource_class': { rule: 'placement:resource_providers:inventories:update' },
  'DELETE /resource_providers/:uuid/inventories/:resource_class': { rule: 'placement:resource_providers:inventories:delete' },

  'GET /resource_providers/:uuid/usages': { rule: 'placement:resource_providers:usages' },
  'GET /resource_providers/:uuid/aggregates': { rule: 'placement:resource_providers:aggregates:list' },
  'PUT /resource_providers/:uuid/aggregates': { rule: 'placement:resource_providers:aggregates:update' },
  'GET /resource_providers/:uuid/allocations': { rule: 'placement:resource_providers:allocations:list' },

  'GET /resource_providers/:uuid/traits': { rule: 'placement:resource_providers:traits:list' },
  'PUT /resource_providers/:uuid/traits': { rule: 'placement:resource_providers:traits:update' },
  'DELETE /resource_providers/:uuid/traits': { rule: 'placement:resource_providers:traits:delete' },

  'POST /allocations': { rule: 'placement:allocations:manage' },
  'GET /allocations/:consumer_uuid': { rule: 'placement:allocations:list' },
  'PUT /allocations/:consumer_uuid': { rule: 'placement:allocations:update' },
  'DELETE /allocations/:consumer_uuid': { rule: 'placement:allocations:delete' },

  'GET /allocation_candidates': { rule: 'placement:allocation_candidates:list' },

  'GET /traits': { rule: 'placement:traits:list' },
  'GET /traits/:name': { rule: 'placement:traits:show' },
  'PUT /traits/:name': { rule: 'placement:traits:update' },
  'DELETE /traits/:name': { rule: 'placement:traits:delete' },

  // usage.get_total_usages checks against the project asked about, not the caller's
  // (webob's GET.get: the last value of a repeated parameter; None when absent).
  'GET /usages': { rule: 'placement:usages', target: (query) => ({ project_id: query.getAll('project_id').at(-1) ?? null }) },

  'POST /reshaper': { rule: 'placement:reshaper:reshape' },

  // Ours, outside upstream's URL space and its rules: probes, the metrics scrape (the
  // pipeline lets them in without a token) and the API description.
  'GET /healthz': null,
  'GET /readyz': null,
  'GET /metrics': null,
  'GET /openapi.json': null,

  // Ours: the ledger's history, feed, audits and time travel (placement:ledger:read in defaults.ts).
  'GET /ledger/resource_providers/:uuid/history': { rule: 'placement:ledger:read' },
  'GET /ledger/consumers/:uuid/history': { rule: 'placement:ledger:read' },
  'GET /ledger/events': { rule: 'placement:ledger:read' },
  'GET /ledger/audit/provider-claims': { rule: 'placement:ledger:read' },
  'GET /ledger/audit/request/:request_id': { rule: 'placement:ledger:read' },
  'GET /ledger/audit/stale-consumers': { rule: 'placement:ledger:read' },
  'GET /ledger/as-of/resource_providers/:uuid': { rule: 'placement:ledger:read' },
  'GET /ledger/as-of/resource_providers/:uuid/inventories': { rule: 'placement:ledger:read' },
  'GET /ledger/as-of/resource_providers/:uuid/traits': { rule: 'placement:ledger:read' },
  'GET /ledger/as-of/resource_providers/:uuid/aggregates': { rule: 'placement:ledger:read' },
  'GET /ledger/as-of/resource_providers/:uuid/usages': { rule: 'placement:ledger:read' },
  'GET /ledger/as-of/resource_providers/:uuid/allocations': { rule: 'placement:ledger:read' },
  'GET /ledger/as-of/allocations/:consumer_uuid': { rule: 'placement:ledger:read' },
  'GET /ledger/as-of/usages': { rule: 'placement:ledger:read' },
  'GET /ledger/explain/allocation_candidates': { rule: 'placement:ledger:read' },

  // Ours: a merge patch of a consumer's allocations writes what PUT /allocations/{consumer} writes, under its rule.
  'PATCH /ledger/allocations/:consumer_uuid': { rule: 'placement:allocations:update' },

  // Ours: usage over time. Judged against the project asked about, as GET /usages, so an
  // operator may narrow the rule to a project's own readers. The dashboard page holds no data
  // and a browser opens it without a token; its calls to /ledger/usage carry one.
  'GET /ledger/dashboard': null,
  'GET /ledger/usage': { rule: 'placement:ledger:read', target: (query) => ({ project_id: query.getAll('project_id').at(-1) ?? null }) },
  'GET /ledger/usage/totals': { rule: 'placement:ledger:read', target: (query) => ({ project_id: query.getAll('project_id').at(-1) ?? null }) },

  // Ours: the operators' console. The page is public as the dashboard's (it holds no data); the
  // two views it reads that upstream has no single call for are the ledger's to read.
  'GET /ledger/console': null,
  'GET /ledger/resource_providers/:uuid/tree': { rule: 'placement:ledger:read' },
  'GET /ledger/capacity': { rule: 'placement:ledger:read' },
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
