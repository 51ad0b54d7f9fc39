import type { ExtraRoute } from '../operations/openapi/extra-route.js';

const tag = 'Ledger';
const json = (description: string) => ['application/json', description] as const;
const ERRORS = { 400: json('a malformed parameter'), 403: json('placement:ledger:read denies the caller') };
const asOf = (path: string, summary: string, what: string): ExtraRoute => ({
  method: 'get', path, tag, summary: `${summary} as of a past point (?as_of=position token or RFC 3339 time), replayed from the log`,
  responses: { 200: json(`${what}, as upstream answers at the latest microversion`), ...ERRORS, 404: json('no such provider at that point') },
});

/** The ledger's read-only routes, for the API description. */
export const LEDGER_ROUTES: readonly ExtraRoute[] = [
  {
    method: 'get', path: '/ledger/resource_providers/{uuid}/history', tag,
    summary: "A provider's events (?order=asc|desc&limit=&marker=), each with position, time, change, generation, request id and caller",
    responses: { 200: json('a page of events and next_marker'), ...ERRORS, 404: json('no such provider ever') },
  },
  {
    method: 'get', path: '/ledger/consumers/{uuid}/history', tag,
    summary: "A consumer's events (?order=asc|desc&limit=&marker=)",
    responses: { 200: json('a page of events and next_marker'), ...ERRORS, 404: json('no such consumer ever') },
  },
  {
    method: 'get', path: '/ledger/events', tag,
    summary: 'The global feed in gap-free order (?after=position&limit=); long-poll with ?wait=seconds; server-sent events with ?stream=sse or Accept: text/event-stream',
    responses: { 200: ['text/event-stream', 'events and `next`, or a stream of them'], ...ERRORS, 406: json('neither JSON nor an event stream is acceptable') },
  },
  {
    method: 'get', path: '/ledger/audit/provider-claims', tag, summary: 'Consumers holding allocations on ?provider=, with when and by whom each claim was made',
    responses: { 200: json('claims, oldest first'), ...ERRORS, 404: json('no such provider') },
  },
  {
    method: 'get', path: '/ledger/audit/request/{request_id}', tag, summary: 'The events and allocations one request wrote',
    responses: { 200: json('events and allocations'), ...ERRORS, 404: json('the request wrote nothing') },
  },
  {
    method: 'get', path: '/ledger/audit/stale-consumers', tag,
    summary: 'Consumers holding allocations unchanged for longer than ?older_than= (seconds or an ISO 8601 duration)',
    responses: { 200: json('consumers, oldest write first'), ...ERRORS },
  },
  asOf('/ledger/as-of/resource_providers/{uuid}', 'A provider', 'the provider with parent and root'),
  asOf('/ledger/as-of/resource_providers/{uuid}/inventories', "A provider's inventories", 'the inventories'),
  asOf('/ledger/as-of/resource_providers/{uuid}/traits', "A provider's traits", 'the traits'),
  asOf('/ledger/as-of/resource_providers/{uuid}/aggregates', "A provider's aggregates", 'the aggregates'),
  asOf('/ledger/as-of/resource_providers/{uuid}/usages', "A provider's usages", 'the usages'),
  asOf('/ledger/as-of/resource_providers/{uuid}/allocations', "A provider's allocations", 'the allocations'),
  asOf('/ledger/as-of/allocations/{consumer_uuid}', "A consumer's allocations", 'the allocations'),
  {
    method: 'patch', path: '/ledger/allocations/{consumer_uuid}', tag,
    summary: "Change part of an existing consumer's allocations with an RFC 7396 merge patch of the document GET /allocations/{consumer_uuid} shows "
      + '(consumer_generation required; null removes a class or a provider); claimed exactly as PUT /allocations/{consumer_uuid}',
    body: ['application/merge-patch+json', 'the merge patch'],
    responses: {
      204: json('the merged allocations are claimed'), 400: json('a malformed patch, or a claim PUT would refuse with 400'),
      403: json('placement:allocations:update denies the caller'), 404: json('no such consumer: a patch never creates one'),
      409: json('consumer generation mismatch (placement.concurrent_update) or not enough capacity'), 415: json('not application/merge-patch+json'),
    },
  },
  ...(['revert', 'restore'] as const).map((what): ExtraRoute => ({
    method: 'post', path: `/ledger/${what}`, tag,
    summary: what === 'revert'
      ? 'Plan (default) or apply (apply, plan_hash) the revert of one request: every stream it changed back to just before it, refused where later writes changed them unless forced'
      : 'Plan (default) or apply (apply, plan_hash) the restore of providers, trees, aggregates, consumers or projects to their state at as_of',
    body: ['application/json', `the ${what} and its scope`],
    responses: {
      200: json('the plan: per stream, now, then, the events to append and the problems; applied when asked'),
      400: json('a malformed body, as_of or scope'), 403: json(`placement:ledger:${what} denies the caller`),
      404: json('the request wrote nothing'), 409: json('the plan changed since it was read (plan_hash), or the revert is refused'),
    },
  })),
  asOf('/ledger/as-of/usages', 'A project\'s usages (?project_id=&user_id=&consumer_type=)', 'the usages by consumer type'),
];
