import { canonical } from './json-diff.js';

/**
 * What of a reply is compared, with every list whose order the API leaves undefined sorted.
 *
 * Why sort: upstream Placement 8.0.0 has no ORDER BY anywhere (placement/objects/*.py builds
 * every list from a query or a set), so the order of providers, traits, aggregates, resource
 * classes and allocation requests is whatever MariaDB or PostgreSQL happen to return, or Python's
 * set iteration (allocation_candidate.py; `randomize_allocation_candidates` shuffles it on
 * purpose). No client may rely on it, and the same server on two databases already disagrees.
 * Lists with a meaning in their order are kept: a provider's `links`, the version document.
 */
export function normalize(path: string, body: any): any {
  if (!isObject(body)) return body;
  const out: any = structuredClone(body);
  // The request id is per request by design; a detail's line breaks and indentation are Python's
  // pprint of a JSON schema upstream, which no client parses.
  if (Array.isArray(out.errors)) {
    for (const error of out.errors) {
      if (!isObject(error)) continue;
      delete error.request_id;
      if (typeof error.detail === 'string') error.detail = error.detail.replace(/\s+/g, ' ').trim();
    }
  }
  const route = path.split('?')[0];
  if (Array.isArray(out.resource_providers)) out.resource_providers.sort(by((rp: any) => rp.uuid));
  if (Array.isArray(out.traits)) out.traits.sort();
  if (Array.isArray(out.aggregates)) out.aggregates.sort();
  if (Array.isArray(out.resource_classes)) out.resource_classes.sort(by((rc: any) => rc.name));
  if (route === '/allocation_candidates') normalizeCandidates(out);
  return out;
}

function normalizeCandidates(out: any): void {
  if (Array.isArray(out.allocation_requests)) {
    for (const request of out.allocation_requests) {
      // Below 1.12 a request's allocations are a list of {resource_provider: {uuid}, resources}.
      if (Array.isArray(request.allocations)) request.allocations.sort(by((a: any) => a.resource_provider?.uuid));
      if (isObject(request.mappings)) for (const key of Object.keys(request.mappings)) request.mappings[key].sort();
    }
    out.allocation_requests.sort(by(canonical));
  }
  if (isObject(out.provider_summaries)) {
    for (const summary of Object.values(out.provider_summaries) as any[]) if (Array.isArray(summary.traits)) summary.traits.sort();
  }
}

/**
 * With `limit`, which candidates come back is upstream's arbitrary order's first N (or a random
 * N): compared are the count and whether every returned request and summary is one the same
 * server offers without the limit.
 */
export function limitedCandidates(limited: any, unlimited: any): any {
  if (!isObject(limited) || !Array.isArray(limited.allocation_requests) || !isObject(unlimited)) return limited;
  const offered = new Set((unlimited.allocation_requests ?? []).map(canonical));
  const summaries = new Set(Object.keys(unlimited.provider_summaries ?? {}));
  return {
    allocation_requests_count: limited.allocation_requests.length,
    allocation_requests_not_offered_without_limit: limited.allocation_requests.map(canonical).filter((r: string) => !offered.has(r)),
    provider_summaries_not_offered_without_limit: Object.keys(limited.provider_summaries ?? {}).filter((rp) => !summaries.has(rp)),
  };
}

const by = <T>(key: (item: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
