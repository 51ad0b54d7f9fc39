import { CONSOLE_ROUTES } from '../../console/console.routes.js';
import { LEDGER_ROUTES } from '../../ledger/ledger-routes.js';
import { LEDGER_EXPLAIN_ROUTES } from '../../ledger-explain/ledger-explain.routes.js';
import { USAGE_OVER_TIME_ROUTES } from '../../usage-over-time/usage-over-time.routes.js';
import type { ExtraRoute } from './extra-route.js';

/** One operation of the API as the OpenAPI document lists it. */
export interface DocumentedRoute {
  readonly method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI style: `/resource_providers/{uuid}`. */
  readonly path: string;
  readonly tag: string;
  readonly summary: string;
  /** The microversion that added the route or the method (handler.py's version guards). */
  readonly since?: string;
  /** Success statuses; several where the microversion decides. */
  readonly ok: readonly number[];
  readonly body?: true;
  /** Query parameters, with the microversion that added each. */
  readonly query?: readonly (readonly [name: string, since?: string])[];
}

const rp = 'Resource providers', inv = 'Inventories', rc = 'Resource classes', tr = 'Traits', al = 'Allocations';

/** upstream's ROUTE_DECLARATIONS (placement/handler.py), in its order. */
export const UPSTREAM_ROUTES: readonly DocumentedRoute[] = [
  { method: 'get', path: '/', tag: 'Root', summary: 'Versions document (no token needed)', ok: [200] },

  { method: 'get', path: '/resource_classes', tag: rc, since: '1.2', summary: 'List resource classes', ok: [200] },
  { method: 'post', path: '/resource_classes', tag: rc, since: '1.2', summary: 'Create a custom resource class', ok: [201], body: true },
  { method: 'get', path: '/resource_classes/{name}', tag: rc, since: '1.2', summary: 'Show a resource class', ok: [200] },
  { method: 'put', path: '/resource_classes/{name}', tag: rc, since: '1.2', summary: 'Create (1.7+) or rename (1.2-1.6) a custom resource class', ok: [200, 201, 204], body: true },
  { method: 'delete', path: '/resource_classes/{name}', tag: rc, since: '1.2', summary: 'Delete a custom resource class', ok: [204] },

  {
    method: 'get', path: '/resource_providers', tag: rp, summary: 'List resource providers', ok: [200],
    query: [['name'], ['uuid'], ['member_of', '1.3'], ['resources', '1.4'], ['in_tree', '1.14'], ['required', '1.18']],
  },
  { method: 'post', path: '/resource_providers', tag: rp, summary: 'Create a resource provider (the body is returned from 1.20)', ok: [200, 201], body: true },
  { method: 'get', path: '/resource_providers/{uuid}', tag: rp, summary: 'Show a resource provider', ok: [200] },
  { method: 'delete', path: '/resource_providers/{uuid}', tag: rp, summary: 'Delete a resource provider', ok: [204] },
  { method: 'put', path: '/resource_providers/{uuid}', tag: rp, summary: 'Update a resource provider (name, parent)', ok: [200], body: true },

  { method: 'get', path: '/resource_providers/{uuid}/inventories', tag: inv, summary: "List a provider's inventories", ok: [200] },
  { method: 'post', path: '/resource_providers/{uuid}/inventories', tag: inv, summary: 'Create one inventory', ok: [201], body: true },
  { method: 'put', path: '/resource_providers/{uuid}/inventories', tag: inv, summary: "Replace all of a provider's inventories", ok: [200], body: true },
  { method: 'delete', path: '/resource_providers/{uuid}/inventories', tag: inv, since: '1.5', summary: "Delete all of a provider's inventories", ok: [204] },
  { method: 'get', path: '/resource_providers/{uuid}/inventories/{resource_class}', tag: inv, summary: 'Show one inventory', ok: [200] },
  { method: 'put', path: '/resource_providers/{uuid}/inventories/{resource_class}', tag: inv, summary: 'Update one inventory', ok: [200], body: true },
  { method: 'delete', path: '/resource_providers/{uuid}/inventories/{resource_class}', tag: inv, summary: 'Delete one inventory', ok: [204] },

  { method: 'get', path: '/resource_providers/{uuid}/usages', tag: 'Usages', summary: "A provider's usage per resource class", ok: [200] },
  { method: 'get', path: '/resource_providers/{uuid}/aggregates', tag: 'Aggregates', since: '1.1', summary: "List a provider's aggregates", ok: [200] },
  { method: 'put', path: '/resource_providers/{uuid}/aggregates', tag: 'Aggregates', since: '1.1', summary: "Replace a provider's aggregates", ok: [200], body: true },
  { method: 'get', path: '/resource_providers/{uuid}/allocations', tag: al, summary: 'Allocations against a provider', ok: [200] },

  { method: 'post', path: '/allocations', tag: al, since: '1.13', summary: 'Replace the allocations of several consumers atomically', ok: [204], body: true },
  { method: 'get', path: '/allocations/{consumer_uuid}', tag: al, summary: "List a consumer's allocations", ok: [200] },
  { method: 'put', path: '/allocations/{consumer_uuid}', tag: al, summary: "Replace a consumer's allocations", ok: [204], body: true },
  { method: 'delete', path: '/allocations/{consumer_uuid}', tag: al, summary: "Delete a consumer's allocations", ok: [204] },

  {
    method: 'get', path: '/allocation_candidates', tag: 'Allocation candidates', since: '1.10', summary: 'Providers that can satisfy a request', ok: [200],
    query: [
      ['resources'], ['limit', '1.16'], ['required', '1.17'], ['member_of', '1.21'], ['group_policy', '1.25'], ['resources{N}', '1.25'],
      ['required{N}', '1.25'], ['member_of{N}', '1.25'], ['in_tree', '1.31'], ['in_tree{N}', '1.31'], ['root_required', '1.35'], ['same_subtree', '1.36'],
    ],
  },

  { method: 'get', path: '/traits', tag: tr, since: '1.6', summary: 'List traits', ok: [200], query: [['name'], ['associated']] },
  { method: 'get', path: '/traits/{name}', tag: tr, since: '1.6', summary: 'Check that a trait exists', ok: [204] },
  { method: 'put', path: '/traits/{name}', tag: tr, since: '1.6', summary: 'Create a custom trait', ok: [201, 204] },
  { method: 'delete', path: '/traits/{name}', tag: tr, since: '1.6', summary: 'Delete a custom trait', ok: [204] },
  { method: 'get', path: '/resource_providers/{uuid}/traits', tag: tr, since: '1.6', summary: "List a provider's traits", ok: [200] },
  { method: 'put', path: '/resource_providers/{uuid}/traits', tag: tr, since: '1.6', summary: "Replace a provider's traits", ok: [200], body: true },
  { method: 'delete', path: '/resource_providers/{uuid}/traits', tag: tr, since: '1.6', summary: "Remove all of a provider's traits", ok: [204] },

  { method: 'get', path: '/usages', tag: 'Usages', since: '1.9', summary: 'Total usage of a project (and user)', ok: [200], query: [['project_id'], ['user_id'], ['consumer_type', '1.38']] },
  { method: 'post', path: '/reshaper', tag: 'Reshaper', since: '1.30', summary: 'Move inventories and allocations between providers atomically', ok: [204], body: true },
];

export const EXTRA_ROUTES: readonly ExtraRoute[] = [
  { method: 'get', path: '/healthz', tag: 'Operations', summary: 'Liveness: the process answers', unauthenticated: true, responses: { 200: ['application/json', 'alive'] } },
  {
    method: 'get', path: '/readyz', tag: 'Operations', summary: 'Readiness: the database answers and the read models are current', unauthenticated: true,
    responses: { 200: ['application/json', 'ready'], 503: ['application/json', 'not ready; `reason` says why'] },
  },
  { method: 'get', path: '/metrics', tag: 'Operations', summary: 'Prometheus metrics (text exposition format)', unauthenticated: true, responses: { 200: ['text/plain', 'metrics'] } },
  { method: 'get', path: '/openapi.json', tag: 'Operations', summary: 'This document', responses: { 200: ['application/json', 'OpenAPI 3.1 document'] } },
  ...LEDGER_ROUTES,
  ...LEDGER_EXPLAIN_ROUTES,
  ...USAGE_OVER_TIME_ROUTES,
  ...CONSOLE_ROUTES,
];
