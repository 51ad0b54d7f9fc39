/** One request in parts, so each part can be mutated: the path as segments, the query as pairs. */
export interface RequestParts {
  method: string;
  segments: string[];
  /** %-encoded pairs, sent as they are. */
  query: Array<[string, string]>;
  headers: Array<[string, string]>;
  /** A JSON value to send, or raw text (already serialized) when a mutation broke it. */
  body?: { json: unknown } | { raw: Buffer };
  /** Sent without a content-type even with a body. */
  noContentType?: boolean;
}

/** What the valid requests refer to: made through the API before each batch (campaign.ts). */
export interface Fixture {
  readonly provider: string;
  readonly generation: number;
  readonly consumer: string;
  readonly otherUuid: string;
  readonly customClass: string;
  readonly customTrait: string;
  readonly project: string;
}

const alloc = (f: Fixture) => ({
  allocations: { [f.provider]: { resources: { VCPU: 1 } } },
  project_id: f.project, user_id: 'fuzz-user', consumer_generation: null, consumer_type: 'INSTANCE',
});

type Seed = [method: string, path: string, body?: unknown];

/** A valid request for every route and method the service serves (GET /openapi.json lists them). */
export function validRequests(f: Fixture): RequestParts[] {
  const rp = `/resource_providers/${f.provider}`;
  const inventory = { total: 8, reserved: 0, min_unit: 1, max_unit: 8, step_size: 1, allocation_ratio: 1.0 };
  const seeds: Seed[] = [
    ['GET', '/'],
    ['GET', '/resource_classes'], ['POST', '/resource_classes', { name: `${f.customClass}_NEW` }],
    ['GET', `/resource_classes/${f.customClass}`], ['PUT', `/resource_classes/${f.customClass}`], ['DELETE', `/resource_classes/${f.customClass}_NEW`],
    ['GET', '/resource_providers?name=fuzz&member_of=in:' + f.otherUuid + '&required=HW_CPU_X86_AVX&resources=VCPU:1'],
    ['POST', '/resource_providers', { name: `fuzz-${f.otherUuid}`, uuid: f.otherUuid, parent_provider_uuid: f.provider }],
    ['GET', rp], ['PUT', rp, { name: `fuzz-renamed-${f.provider}` }], ['DELETE', `/resource_providers/${f.otherUuid}`],
    ['GET', `${rp}/inventories`],
    ['POST', `${rp}/inventories`, { resource_class: 'DISK_GB', ...inventory }],
    ['PUT', `${rp}/inventories`, { resource_provider_generation: f.generation, inventories: { VCPU: inventory, MEMORY_MB: { ...inventory, total: 4096, max_unit: 4096 } } }],
    ['DELETE', `${rp}/inventories`],
    ['GET', `${rp}/inventories/VCPU`], ['PUT', `${rp}/inventories/VCPU`, { resource_provider_generation: f.generation, ...inventory, total: 16 }],
    ['DELETE', `${rp}/inventories/DISK_GB`],
    ['GET', `${rp}/usages`], ['GET', `${rp}/aggregates`],
    ['PUT', `${rp}/aggregates`, { aggregates: [f.otherUuid], resource_provider_generation: f.generation }],
    ['GET', `${rp}/allocations`],
    ['POST', '/allocations', { [f.consumer]: alloc(f) }],
    ['GET', `/allocations/${f.consumer}`], ['PUT', `/allocations/${f.consumer}`, alloc(f)], ['DELETE', `/allocations/${f.consumer}`],
    ['GET', '/allocation_candidates?resources=VCPU:1&limit=5&required=!HW_CPU_X86_AVX&group_policy=none'],
    ['GET', '/traits?name=startswith:CUSTOM'], ['GET', `/traits/${f.customTrait}`], ['PUT', `/traits/${f.customTrait}`], ['DELETE', `/traits/${f.customTrait}_GONE`],
    ['GET', `${rp}/traits`], ['PUT', `${rp}/traits`, { traits: [f.customTrait], resource_provider_generation: f.generation }], ['DELETE', `${rp}/traits`],
    ['GET', `/usages?project_id=${f.project}&user_id=fuzz-user`],
    ['POST', '/reshaper', { inventories: { [f.provider]: { resource_provider_generation: f.generation, inventories: { VCPU: inventory } } }, allocations: { [f.consumer]: alloc(f) } }],
    ['GET', '/healthz'], ['GET', '/readyz'], ['GET', '/metrics'], ['GET', '/openapi.json'],
    ['GET', `/ledger/resource_providers/${f.provider}/history?limit=5`], ['GET', `/ledger/consumers/${f.consumer}/history`],
    ['GET', '/ledger/events?limit=5'], ['GET', `/ledger/audit/provider-claims?provider=${f.provider}`],
    ['GET', '/ledger/audit/request/req-00000000-0000-0000-0000-000000000000'], ['GET', '/ledger/audit/stale-consumers'],
    ...['', '/inventories', '/traits', '/aggregates', '/usages', '/allocations']
      .map((tail): Seed => ['GET', `/ledger/as-of/resource_providers/${f.provider}${tail}?as_of=2030-01-01T00:00:00Z`]),
    ['GET', `/ledger/as-of/allocations/${f.consumer}?as_of=2030-01-01T00:00:00Z`],
    ['GET', `/ledger/as-of/usages?project_id=${f.project}&as_of=2030-01-01T00:00:00Z`],
    ['GET', '/ledger/explain/allocation_candidates?resources=VCPU:1'],
    ['GET', `/ledger/usage?project_id=${f.project}&from=2026-01-01T00:00:00Z&to=2030-01-01T00:00:00Z`],
    ['GET', '/ledger/usage/totals?from=2026-01-01T00:00:00Z&to=2030-01-01T00:00:00Z'],
    ['GET', `/ledger/resource_providers/${f.provider}/tree`], ['GET', '/ledger/capacity?top=3'],
  ];
  return seeds.map(([method, path, body]) => {
    const [pathname, search = ''] = path.split('?');
    return {
      method,
      segments: pathname.split('/').slice(1),
      // Kept %-encoded: mutations put in encodings no decoder would produce.
      query: [...new URLSearchParams(search)].map(([k, v]): [string, string] => [encodeURIComponent(k), encodeURIComponent(v)]),
      headers: [['x-auth-token', 'admin'], ['openstack-api-version', 'placement latest'], ['accept', 'application/json']],
      ...(body === undefined ? {} : { body: { json: body } }),
    };
  });
}
