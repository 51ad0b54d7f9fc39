import type { ExtraRoute } from '../operations/openapi/extra-route.js';

const tag = 'Usage over time';
const json = (description: string) => ['application/json', description] as const;
const ERRORS = { 400: json('a malformed or missing parameter, or a range over 400 days'), 403: json('placement:ledger:read denies the caller') };
const QUERY = '?project_id=&start=(RFC 3339)&end=(default now)&resource_class=&user_id=&consumer_type=(a type, unknown or all)';

/** For the API description. */
export const USAGE_OVER_TIME_ROUTES: readonly ExtraRoute[] = [
  {
    method: 'get', path: '/ledger/usage', tag,
    summary: `A project's usage per resource class in buckets (${QUERY}&bucket=hour|day): each bucket's peak units and integral in unit-hours`,
    responses: { 200: json('per class: peak, integral and buckets [{start, peak, integral}]'), ...ERRORS },
  },
  {
    method: 'get', path: '/ledger/usage/totals', tag, summary: `A project's peak and integral (unit-hours) per resource class over a range (${QUERY})`,
    responses: { 200: json('per class: peak and integral'), ...ERRORS },
  },
  {
    method: 'get', path: '/ledger/dashboard', tag, unauthenticated: true,
    summary: 'The usage dashboard: the console (/ledger/console) opened on its usage view, charting GET /ledger/usage per resource class; it asks for the token itself',
    responses: { 200: ['text/html', 'the page'] },
  },
];
