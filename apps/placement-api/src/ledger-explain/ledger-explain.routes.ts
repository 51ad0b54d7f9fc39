import type { ExtraRoute } from '../operations/openapi/extra-route.js';

const json = (description: string) => ['application/json', description] as const;

/** For the API description. */
export const LEDGER_EXPLAIN_ROUTES: readonly ExtraRoute[] = [
  {
    method: 'get', path: '/ledger/explain/allocation_candidates', tag: 'Ledger',
    summary: 'GET /allocation_candidates\' own query (at the request\'s microversion), explained: providers left after each step per group, '
      + 'the search\'s own counts and the number of candidates; with ?provider=<uuid> the first step that excluded it from each group and why; '
      + 'with ?as_of=<position token or RFC 3339 time> over the log as it was then',
    responses: {
      200: json('groups[].steps, search, candidates, provider'),
      400: json('a malformed parameter, as GET /allocation_candidates answers, or a bad provider or as_of'),
      403: json('placement:ledger:read denies the caller'),
    },
  },
];
