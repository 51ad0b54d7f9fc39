import { DEFAULT_RULES } from '#platform/policy/defaults.js';
import { policyForRoute, ROUTE_POLICIES, routeKey } from './route-policies.js';

/** The operations column of placement-docs/policy-defaults-head.tsv, rule by rule. */
const DOCUMENTED_OPERATIONS: Record<string, string[]> = {
  'placement:resource_providers:list': ['GET /resource_providers'],
  'placement:resource_providers:create': ['POST /resource_providers'],
  'placement:resource_providers:show': ['GET /resource_providers/{uuid}'],
  'placement:resource_providers:update': ['PUT /resource_providers/{uuid}'],
  'placement:resource_providers:delete': ['DELETE /resource_providers/{uuid}'],
  'placement:resource_classes:list': ['GET /resource_classes'],
  'placement:resource_classes:create': ['POST /resource_classes'],
  'placement:resource_classes:show': ['GET /resource_classes/{name}'],
  'placement:resource_classes:update': ['PUT /resource_classes/{name}'],
  'placement:resource_classes:delete': ['DELETE /resource_classes/{name}'],
  'placement:resource_providers:inventories:list': ['GET /resource_providers/{uuid}/inventories'],
  'placement:resource_providers:inventories:create': ['POST /resource_providers/{uuid}/inventories'],
  'placement:resource_providers:inventories:show': ['GET /resource_providers/{uuid}/inventories/{resource_class}'],
  'placement:resource_providers:inventories:update': ['PUT /resource_providers/{uuid}/inventories', 'PUT /resource_providers/{uuid}/inventories/{resource_class}'],
  'placement:resource_providers:inventories:delete': ['DELETE /resource_providers/{uuid}/inventories', 'DELETE /resource_providers/{uuid}/inventories/{resource_class}'],
  'placement:resource_providers:aggregates:list': ['GET /resource_providers/{uuid}/aggregates'],
  'placement:resource_providers:aggregates:update': ['PUT /resource_providers/{uuid}/aggregates'],
  'placement:resource_providers:usages': ['GET /resource_providers/{uuid}/usages'],
  'placement:usages': ['GET /usages'],
  'placement:traits:list': ['GET /traits'],
  'placement:traits:show': ['GET /traits/{name}'],
  'placement:traits:update': ['PUT /traits/{name}'],
  'placement:traits:delete': ['DELETE /traits/{name}'],
  'placement:resource_providers:traits:list': ['GET /resource_providers/{uuid}/traits'],
  'placement:resource_providers:traits:update': ['PUT /resource_providers/{uuid}/traits'],
  'placement:resource_providers:traits:delete': ['DELETE /resource_providers/{uuid}/traits'],
  'placement:allocations:manage': ['POST /allocations'],
  'placement:allocations:list': ['GET /allocations/{consumer_uuid}'],
  'placement:allocations:update': ['PUT /allocations/{consumer_uuid}'],
  'placement:allocations:delete': ['DELETE /allocations/{consumer_uuid}'],
  'placement:resource_providers:allocations:list': ['GET /resource_providers/{uuid}/allocations'],
  'placement:allocation_candidates:list': ['GET /allocation_candidates'],
  'placement:reshaper:reshape': ['POST /reshaper'],
};

const fastifyPattern = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

describe('the route -> rule table', () => {
  it.each(Object.entries(DOCUMENTED_OPERATIONS))('guards the operations documented for %s', (rule, operations) => {
    for (const operation of operations) {
      const [method, path] = operation.split(' ');
      expect(policyForRoute(method, fastifyPattern(path))?.rule).toBe(rule);
    }
  });

  it('maps every route to a registered rule; only the version document and our operations routes are public', () => {
    const registered = new Set(DEFAULT_RULES.map((rule) => rule.name));
    const routes = Object.entries(ROUTE_POLICIES);
    const publicRoutes = ['GET /', 'GET /healthz', 'GET /readyz', 'GET /metrics', 'GET /ledger/dashboard', 'GET /ledger/console'];
    expect(routes.filter(([, policy]) => policy === null).map(([route]) => route)).toEqual(publicRoutes);
    expect(routes.filter(([, policy]) => policy && !registered.has(policy.rule))).toEqual([]);
    // Routes under /ledger/ are ours, not upstream's; their rules are checked in src/ledger/ledger-policy.spec.ts,
    // but for the merge patch of allocations, which writes as PUT /allocations/{consumer} does, under its rule.
    expect(policyForRoute('PATCH', '/ledger/allocations/:consumer_uuid')?.rule).toBe('placement:allocations:update');
    expect(policyForRoute('GET', '/openapi.json')?.rule).toBe('placement:api_description:show');
    const ours = routes.filter(([route, policy]) => / \/ledger\//.test(route) && policy !== null);
    expect(routes).toHaveLength(publicRoutes.length + Object.values(DOCUMENTED_OPERATIONS).flat().length + ours.length + 1);
  });

  it('ignores parameter names and a trailing slash', () => {
    expect(routeKey('get', '/resource_providers/:rp/inventories/:rc/')).toBe('GET /resource_providers/:/inventories/:');
    expect(policyForRoute('DELETE', '/allocations/:consumer')?.rule).toBe('placement:allocations:delete');
  });

  it('judges HEAD as its GET and knows nothing of unmapped routes', () => {
    expect(policyForRoute('HEAD', '/traits')?.rule).toBe('placement:traits:list');
    expect(policyForRoute('GET', '/history')).toBeUndefined();
    expect(policyForRoute('PATCH', '/traits/:name')).toBeUndefined();
  });

  it('targets GET /usages at the project in the query, as upstream passes it, and a consumer\'s allocations at the consumer', () => {
    expect(policyForRoute('GET', '/usages')?.target).toBe('asked');
    expect(policyForRoute('GET', '/allocations/:consumer_uuid')?.target).toBe('data');
    expect(policyForRoute('GET', '/resource_providers/:uuid')?.target).toBe('caller');
  });
});
