import type { ExtraRoute } from '../operations/openapi/extra-route.js';

const tag = 'Console';
const json = (description: string) => ['application/json', description] as const;

/** For the API description. */
export const CONSOLE_ROUTES: readonly ExtraRoute[] = [
  {
    method: 'get', path: '/ledger/console', tag, unauthenticated: true,
    summary: 'The operators\' console: a page (no data in it) that asks for a token and then calls the JSON endpoints',
    responses: { 200: ['text/html', 'the page'] },
  },
  {
    method: 'get', path: '/ledger/resource_providers/{uuid}/tree', tag,
    summary: 'The whole tree holding a provider, each with inventories (capacity, used, free), traits, aggregates and the consumers holding allocations on it',
    responses: { 200: json('provider_uuid, root_provider_uuid, providers (parents first)'), 400: json('a query parameter'),
      403: json('placement:ledger:read denies the caller'), 404: json('no such provider') },
  },
  {
    method: 'get', path: '/ledger/capacity', tag,
    summary: 'Total, reserved, capacity, used and free per resource class with the ?top=N (default 5) projects using most, and the same per aggregate (projects counted on its providers)',
    responses: { 200: json('resource_classes, aggregates'), 400: json('a malformed or unknown parameter'), 403: json('placement:ledger:read denies the caller') },
  },
];
