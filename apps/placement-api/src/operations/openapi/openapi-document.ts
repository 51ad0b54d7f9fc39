import { MAX_VERSION, MIN_VERSION } from '../../platform/microversion.js';
import { DocumentedRoute, EXTRA_ROUTES, UPSTREAM_ROUTES } from './api-routes.js';
import type { ExtraRoute } from './extra-route.js';
import { unique } from '#domain/shared/unique.js';

type Json = Record<string, unknown>;

/** `get /resource_providers/{uuid}` -> getResourceProvidersUuid */
const operationId = (method: string, path: string) =>
  method + (path.split(/[^a-zA-Z0-9]+/).filter(Boolean).map((word) => word[0].toUpperCase() + word.slice(1)).join('') || 'Root');

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 204: 'No Content', 503: 'Service Unavailable' };

const pathParameters = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((match) => ({
  name: match[1], in: 'path', required: true, schema: { type: 'string' },
}));

function upstreamOperation(route: DocumentedRoute): Json {
  const since = route.since ?? MIN_VERSION.toString();
  return {
    operationId: operationId(route.method, route.path),
    tags: [route.tag],
    summary: route.summary,
    'x-openstack-microversion': { min: since, max: MAX_VERSION.toString() },
    parameters: [
      { $ref: '#/components/parameters/OpenStackApiVersion' },
      ...pathParameters(route.path),
      ...(route.query ?? []).map(([name, from]) => ({
        name, in: 'query', required: false, schema: { type: 'string' },
        ...(from ? { description: `from microversion ${from}` } : {}),
      })),
    ],
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } } } : {}),
    responses: {
      ...Object.fromEntries(route.ok.map((status) => [String(status), status === 200
        ? { description: STATUS_TEXT[status], content: { 'application/json': { schema: { type: 'object' } } } }
        : { description: STATUS_TEXT[status] }])),
      default: { $ref: '#/components/responses/Error' },
    },
    ...(route.path === '/' ? { security: [] } : {}),
  };
}

function extraOperation(route: ExtraRoute): Json {
  return {
    operationId: operationId(route.method, route.path),
    tags: [route.tag],
    summary: route.summary,
    ...(route.body ? { requestBody: { required: true, description: route.body[1], content: { [route.body[0]]: { schema: { type: 'object' } } } } } : {}),
    responses: Object.fromEntries(Object.entries(route.responses).map(([status, [type, description]]) => [
      status, { description, content: { [type]: { schema: type === 'text/plain' ? { type: 'string' } : { type: 'object' } } } },
    ])),
    ...(route.unauthenticated ? { security: [] } : {}),
  };
}

/** OpenAPI 3.1: every upstream route with its microversion range, and the routes this service adds. */
export function buildOpenApiDocument(): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of UPSTREAM_ROUTES) (paths[route.path] ??= {})[route.method] = upstreamOperation(route);
  for (const route of EXTRA_ROUTES) (paths[route.path] ??= {})[route.method] = extraOperation(route);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Placement Ledger',
      version: MAX_VERSION.toString(),
      description: `OpenStack Placement API, microversions ${MIN_VERSION}-${MAX_VERSION} (header \`OpenStack-API-Version: placement X.Y\`), `
        + 'plus operations endpoints outside upstream\'s URL space. `x-openstack-microversion` gives the range serving each operation; '
        + 'below it the route answers 404 (405 for a method added to an existing route).',
    },
    security: [{ token: [] }],
    tags: unique([...UPSTREAM_ROUTES, ...EXTRA_ROUTES].map((route) => route.tag)).map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'X-Auth-Token' } },
      parameters: {
        OpenStackApiVersion: {
          name: 'OpenStack-API-Version', in: 'header', required: false,
          description: `\`placement X.Y\` or \`placement latest\`; ${MIN_VERSION} when absent`,
          schema: { type: 'string', example: `placement ${MAX_VERSION}` },
        },
      },
      responses: {
        Error: {
          description: 'An error in upstream\'s shape (codes from microversion 1.23)',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Errors' } } },
        },
      },
      schemas: {
        Errors: {
          type: 'object',
          required: ['errors'],
          properties: {
            errors: {
              type: 'array',
              items: {
                type: 'object',
                required: ['status', 'title', 'detail', 'request_id'],
                properties: {
                  status: { type: 'integer' }, title: { type: 'string' }, detail: { type: 'string' },
                  code: { type: 'string' }, request_id: { type: 'string' },
                },
              },
            },
          },
        },
      },
    },
  };
}
