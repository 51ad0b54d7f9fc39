/**
 * Who may do what: every route of /openapi.json against every kind of caller, for the default
 * policy with scope enforced and not, and with the routes judged against their data opened by a
 * policy file (OPENED_POLICY): the reads to project readers, the consumer writes to members. test/e2e/access-matrix.e2e-spec.ts walks it against a
 * real Keystone and fails on a route without a row; docs/authorization.md shows it
 * (matrix-table.ts renders it, and a spec checks the page holds the rendering).
 */

/** The callers: Keystone tokens, project-scoped unless said otherwise. A is the project `demo`, B `other`. */
export const PRINCIPALS = ['admin', 'service', 'a_member', 'a_reader', 'b_member', 'system_admin', 'no_token'] as const;
export type Principal = (typeof PRINCIPALS)[number];

export const MODES = ['scope_on', 'scope_off', 'opened'] as const;
export type Mode = (typeof MODES)[number];

/**
 * allowed: the answer the route gives when policy lets the caller through; denied: 403 (401
 * without a token); filtered: that answer, holding only the caller's own project's consumers (or,
 * where the answer names projects rather than consumers, only the caller's own project).
 */
export type Verdict = 'allowed' | 'denied' | 'filtered';

/** What the matrix e2e builds, as admin, before it walks: A's and B's consumers on one provider. */
export interface MatrixFixture {
  readonly provider: string;
  readonly projectA: string;
  readonly projectB: string;
  readonly consumerA: string;
  readonly consumerB: string;
  /** A POST /allocations that wrote a consumer of each project. */
  readonly batchRequest: string;
  /** A PUT /allocations/{consumerA} after it: a request that wrote A's consumer alone. */
  readonly requestA: string;
  /** RFC 3339, after every write above. */
  readonly now: string;
  /** A uuid nothing has. */
  readonly nothing: string;
}

export interface Probe {
  readonly path: string;
  /**
   * An object is sent as JSON. A write is probed so that nothing changes: with a body its schema
   * refuses, or, where it is judged against its data, with a generation the data is not at.
   */
  readonly body?: unknown;
  readonly contentType?: string;
  readonly accept?: string;
  /** The status when policy lets the caller through. */
  readonly ok: number;
  /** What a filtered answer names of the caller's own: its consumer (by default) or its project. */
  readonly shows?: 'consumers' | 'projects';
}

export interface MatrixCase {
  /** What this case asks, when a route has several. */
  readonly about?: string;
  readonly probe: (fixture: MatrixFixture) => Probe;
  readonly verdicts: Readonly<Record<Mode, Readonly<Record<Principal, Verdict>>>>;
}

export interface MatrixRow {
  /** METHOD and path as /openapi.json lists it. */
  readonly route: string;
  /** The policy rule, or null for what answers without a token. */
  readonly rule: string | null;
  readonly cases: readonly MatrixCase[];
}

/** Let each project's members write (no default rule says that much): admin, service, or a member of the data's project. */
const PROJECT_MEMBER = 'role:admin or (role:member and project_id:%(project_id)s) or role:service';

/**
 * The policy file of the `opened` mode: the routes judged against their data opened to each
 * project's readers, and those writing consumers to its members.
 */
export const OPENED_POLICY: Readonly<Record<string, string>> = Object.fromEntries([
  ...[
    'placement:allocations:list', 'placement:ledger:consumers:history', 'placement:ledger:events', 'placement:ledger:audit:provider_claims',
    'placement:ledger:audit:request', 'placement:ledger:audit:stale_consumers', 'placement:ledger:resource_providers:tree',
    'placement:ledger:capacity', 'placement:ledger:resource_providers:history', 'placement:ledger:revert', 'placement:ledger:restore',
    'placement:resource_providers:allocations:list',
  ].map((rule) => [rule, 'rule:admin_or_project_reader_or_service_api']),
  ...['placement:allocations:update', 'placement:allocations:manage', 'placement:allocations:delete', 'placement:reshaper:reshape']
    .map((rule) => [rule, PROJECT_MEMBER]),
]);

type Column = Readonly<Record<Principal, Verdict>>;
const column = (allowed: readonly Principal[], filtered: readonly Principal[] = []): Column =>
  Object.fromEntries(PRINCIPALS.map((p) => [p, allowed.includes(p) ? 'allowed' : filtered.includes(p) ? 'filtered' : 'denied'])) as Column;

const ADMIN_SERVICE: Principal[] = ['admin', 'service'];
const A_PEOPLE: Principal[] = ['a_member', 'a_reader'];

/** Anyone, no token needed. */
const PUBLIC = { scope_on: column([...PRINCIPALS]), scope_off: column([...PRINCIPALS]), opened: column([...PRINCIPALS]) };
/**
 * Admin and service. A system-scoped admin is refused while scope is enforced (every rule serves
 * project-scoped tokens) and let through by its admin role when it is not.
 */
const ADMIN_OR_SERVICE = {
  scope_on: column(ADMIN_SERVICE), scope_off: column([...ADMIN_SERVICE, 'system_admin']), opened: column(ADMIN_SERVICE),
};
/** The admin alone (rule:admin_api has no legacy rule OR-ed in): a service may not undo an incident. */
const ADMIN_ONLY = { scope_on: column(['admin']), scope_off: column(['admin', 'system_admin']), opened: column(['admin']) };
/** Taking back A's consumer: the admin; opened, service and A's readers too, never B's. */
const UNDO_OF_A = { ...ADMIN_ONLY, opened: column([...ADMIN_SERVICE, ...A_PEOPLE]) };
/** Taking back what belongs to two projects or none: the admin; opened, service too. */
const UNDO_OF_ALL = { ...ADMIN_ONLY, opened: column(ADMIN_SERVICE) };
/** Admin, service, and the readers of the project asked about (A): never B's. */
const PROJECT_A_READERS = {
  scope_on: column([...ADMIN_SERVICE, ...A_PEOPLE]), scope_off: column([...ADMIN_SERVICE, ...A_PEOPLE, 'system_admin']),
  opened: column([...ADMIN_SERVICE, ...A_PEOPLE]),
};
/** One of A's consumers: admin and service; opened, A's readers too and never B's. */
const CONSUMER_OF_A = { ...ADMIN_OR_SERVICE, opened: column([...ADMIN_SERVICE, ...A_PEOPLE]) };
/** Every project's consumers (or projects): admin and service; opened, each project's readers see their own. */
const EVERY_PROJECT = { ...ADMIN_OR_SERVICE, opened: column(ADMIN_SERVICE, [...A_PEOPLE, 'b_member']) };
/** Writing one of A's consumers: admin and service; opened, A's member too (not its reader) and never B's. */
const WRITE_OF_A = { ...ADMIN_OR_SERVICE, opened: column([...ADMIN_SERVICE, 'a_member']) };
/** Writing what two projects hold, or a consumer nobody holds: admin and service, whatever is opened. */
const WRITE_OF_ALL = { ...ADMIN_OR_SERVICE, opened: column(ADMIN_SERVICE) };

const one = (probe: MatrixCase['probe'], verdicts: MatrixCase['verdicts']): MatrixCase[] => [{ probe, verdicts }];
const read = (path: (f: MatrixFixture) => string, ok = 200) => (f: MatrixFixture): Probe => ({ path: path(f), ok });
/** A write whose body its schema refuses: policy is judged before the body is read. */
const refusedWrite = (path: (f: MatrixFixture) => string, body: unknown = {}) => (f: MatrixFixture): Probe => ({ path: path(f), body, ok: 400 });
/** An undo's plan: it changes nothing until applied with the plan's hash. */
const plan = (path: string, body: (f: MatrixFixture) => object) => (f: MatrixFixture): Probe => ({ path, body: body(f), ok: 200 });
/** A delete of what does not exist: policy is judged before anything is looked up. */
const missingDelete = (path: (f: MatrixFixture) => string) => (f: MatrixFixture): Probe => ({ path: path(f), ok: 404 });
/** A consumer's claim of one VCPU at a generation it is not at: judged, then refused (409), so that nothing changes. */
const staleClaim = (f: MatrixFixture, project: string) => ({
  allocations: { [f.provider]: { resources: { VCPU: 1 } } }, project_id: project, user_id: 'matrix', consumer_generation: 999, consumer_type: 'INSTANCE',
});
const staleWrite = (path: (f: MatrixFixture) => string, body: (f: MatrixFixture) => object, contentType?: string) =>
  (f: MatrixFixture): Probe => ({ path: path(f), body: body(f), ok: 409, ...(contentType ? { contentType } : {}) });
const asOf = (f: MatrixFixture) => `as_of=${encodeURIComponent(f.now)}`;
/** Usage over time from a day before the fixture's writes. */
const dayBefore = (f: MatrixFixture) => `start=${encodeURIComponent(new Date(Date.parse(f.now) - 86_400_000).toISOString())}`;

const guarded = (route: string, rule: string, probe: MatrixCase['probe'], verdicts: MatrixCase['verdicts'] = ADMIN_OR_SERVICE): MatrixRow =>
  ({ route, rule, cases: one(probe, verdicts) });
const open = (route: string, probe: MatrixCase['probe']): MatrixRow => ({ route, rule: null, cases: one(probe, PUBLIC) });

export const ACCESS_MATRIX: readonly MatrixRow[] = [
  open('GET /', read(() => '/')),

  guarded('GET /resource_classes', 'placement:resource_classes:list', read(() => '/resource_classes')),
  guarded('POST /resource_classes', 'placement:resource_classes:create', refusedWrite(() => '/resource_classes')),
  guarded('GET /resource_classes/{name}', 'placement:resource_classes:show', read(() => '/resource_classes/VCPU')),
  guarded('PUT /resource_classes/{name}', 'placement:resource_classes:update', (): Probe => ({ path: '/resource_classes/not-custom', ok: 400 })),
  guarded('DELETE /resource_classes/{name}', 'placement:resource_classes:delete', missingDelete(() => '/resource_classes/CUSTOM_NOTHING_HERE')),

  guarded('GET /resource_providers', 'placement:resource_providers:list', read(() => '/resource_providers')),
  guarded('POST /resource_providers', 'placement:resource_providers:create', refusedWrite(() => '/resource_providers')),
  guarded('GET /resource_providers/{uuid}', 'placement:resource_providers:show', read((f) => `/resource_providers/${f.provider}`)),
  guarded('DELETE /resource_providers/{uuid}', 'placement:resource_providers:delete', missingDelete((f) => `/resource_providers/${f.nothing}`)),
  guarded('PUT /resource_providers/{uuid}', 'placement:resource_providers:update', refusedWrite((f) => `/resource_providers/${f.provider}`)),

  guarded('GET /resource_providers/{uuid}/inventories', 'placement:resource_providers:inventories:list', read((f) => `/resource_providers/${f.provider}/inventories`)),
  guarded('POST /resource_providers/{uuid}/inventories', 'placement:resource_providers:inventories:create', refusedWrite((f) => `/resource_providers/${f.provider}/inventories`)),
  guarded('PUT /resource_providers/{uuid}/inventories', 'placement:resource_providers:inventories:update', refusedWrite((f) => `/resource_providers/${f.provider}/inventories`)),
  guarded('DELETE /resource_providers/{uuid}/inventories', 'placement:resource_providers:inventories:delete', missingDelete((f) => `/resource_providers/${f.nothing}/inventories`)),
  guarded('GET /resource_providers/{uuid}/inventories/{resource_class}', 'placement:resource_providers:inventories:show',
    read((f) => `/resource_providers/${f.provider}/inventories/VCPU`)),
  guarded('PUT /resource_providers/{uuid}/inventories/{resource_class}', 'placement:resource_providers:inventories:update',
    refusedWrite((f) => `/resource_providers/${f.provider}/inventories/VCPU`)),
  guarded('DELETE /resource_providers/{uuid}/inventories/{resource_class}', 'placement:resource_providers:inventories:delete',
    missingDelete((f) => `/resource_providers/${f.nothing}/inventories/VCPU`)),

  guarded('GET /resource_providers/{uuid}/usages', 'placement:resource_providers:usages', read((f) => `/resource_providers/${f.provider}/usages`)),
  guarded('GET /resource_providers/{uuid}/aggregates', 'placement:resource_providers:aggregates:list', read((f) => `/resource_providers/${f.provider}/aggregates`)),
  guarded('PUT /resource_providers/{uuid}/aggregates', 'placement:resource_providers:aggregates:update', refusedWrite((f) => `/resource_providers/${f.provider}/aggregates`)),
  guarded('GET /resource_providers/{uuid}/allocations', 'placement:resource_providers:allocations:list',
    read((f) => `/resource_providers/${f.provider}/allocations`), EVERY_PROJECT),

  {
    route: 'POST /allocations', rule: 'placement:allocations:manage', cases: [
      { about: "A's consumer, at a stale generation", probe: staleWrite(() => '/allocations', (f) => ({ [f.consumerA]: staleClaim(f, f.projectA) })), verdicts: WRITE_OF_A },
      {
        about: "A's and B's consumers, at stale generations",
        probe: staleWrite(() => '/allocations', (f) => ({ [f.consumerA]: staleClaim(f, f.projectA), [f.consumerB]: staleClaim(f, f.projectB) })),
        verdicts: WRITE_OF_ALL,
      },
    ],
  },
  guarded('GET /allocations/{consumer_uuid}', 'placement:allocations:list', read((f) => `/allocations/${f.consumerA}`), CONSUMER_OF_A),
  {
    route: 'PUT /allocations/{consumer_uuid}', rule: 'placement:allocations:update', cases: [
      { about: "A's consumer, at a stale generation", probe: staleWrite((f) => `/allocations/${f.consumerA}`, (f) => staleClaim(f, f.projectA)), verdicts: WRITE_OF_A },
      {
        about: "A's consumer charged to B, at a stale generation",
        probe: staleWrite((f) => `/allocations/${f.consumerA}`, (f) => staleClaim(f, f.projectB)),
        verdicts: WRITE_OF_ALL,
      },
    ],
  },
  {
    route: 'DELETE /allocations/{consumer_uuid}', rule: 'placement:allocations:delete', cases: [
      { about: 'a consumer nobody holds', probe: missingDelete((f) => `/allocations/${f.nothing}`), verdicts: WRITE_OF_ALL },
    ],
  },

  guarded('GET /allocation_candidates', 'placement:allocation_candidates:list', read(() => '/allocation_candidates?resources=VCPU:1')),

  guarded('GET /traits', 'placement:traits:list', read(() => '/traits')),
  guarded('GET /traits/{name}', 'placement:traits:show', read(() => '/traits/HW_CPU_X86_AVX', 204)),
  guarded('PUT /traits/{name}', 'placement:traits:update', (): Probe => ({ path: '/traits/not-custom', ok: 400 })),
  guarded('DELETE /traits/{name}', 'placement:traits:delete', missingDelete(() => '/traits/CUSTOM_NOTHING_HERE')),
  guarded('GET /resource_providers/{uuid}/traits', 'placement:resource_providers:traits:list', read((f) => `/resource_providers/${f.provider}/traits`)),
  guarded('PUT /resource_providers/{uuid}/traits', 'placement:resource_providers:traits:update', refusedWrite((f) => `/resource_providers/${f.provider}/traits`)),
  guarded('DELETE /resource_providers/{uuid}/traits', 'placement:resource_providers:traits:delete', missingDelete((f) => `/resource_providers/${f.nothing}/traits`)),

  guarded('GET /usages', 'placement:usages', read((f) => `/usages?project_id=${f.projectA}`), PROJECT_A_READERS),
  {
    route: 'POST /reshaper', rule: 'placement:reshaper:reshape', cases: [{
      about: "A's consumer, at stale generations",
      probe: staleWrite(() => '/reshaper', (f) => ({
        inventories: { [f.provider]: { resource_provider_generation: 999, inventories: { VCPU: { total: 16 } } } },
        allocations: { [f.consumerA]: staleClaim(f, f.projectA) },
      })),
      verdicts: WRITE_OF_A,
    }],
  },

  open('GET /healthz', read(() => '/healthz')),
  open('GET /readyz', read(() => '/readyz')),
  open('GET /metrics', read(() => '/metrics')),
  guarded('GET /openapi.json', 'placement:api_description:show', read(() => '/openapi.json')),

  guarded('GET /ledger/resource_providers/{uuid}/history', 'placement:ledger:resource_providers:history',
    read((f) => `/ledger/resource_providers/${f.provider}/history`), EVERY_PROJECT),
  guarded('GET /ledger/consumers/{uuid}/history', 'placement:ledger:consumers:history', read((f) => `/ledger/consumers/${f.consumerA}/history`), CONSUMER_OF_A),
  {
    route: 'GET /ledger/events', rule: 'placement:ledger:events', cases: [
      { about: 'a page', probe: read(() => '/ledger/events?limit=1000'), verdicts: EVERY_PROJECT },
      { about: 'a long poll', probe: read(() => '/ledger/events?limit=1000&wait=1'), verdicts: EVERY_PROJECT },
    ],
  },
  guarded('GET /ledger/audit/provider-claims', 'placement:ledger:audit:provider_claims',
    read((f) => `/ledger/audit/provider-claims?provider=${f.provider}`), EVERY_PROJECT),
  guarded('GET /ledger/audit/request/{request_id}', 'placement:ledger:audit:request', read((f) => `/ledger/audit/request/${f.batchRequest}`), EVERY_PROJECT),
  guarded('GET /ledger/audit/stale-consumers', 'placement:ledger:audit:stale_consumers', read(() => '/ledger/audit/stale-consumers?older_than=PT0S'), EVERY_PROJECT),

  guarded('GET /ledger/as-of/resource_providers/{uuid}', 'placement:resource_providers:show', read((f) => `/ledger/as-of/resource_providers/${f.provider}?${asOf(f)}`)),
  ...(['inventories', 'traits', 'aggregates', 'usages', 'allocations'] as const).map((tail) => guarded(
    `GET /ledger/as-of/resource_providers/{uuid}/${tail}`,
    tail === 'usages' ? 'placement:resource_providers:usages' : `placement:resource_providers:${tail}:list`,
    read((f) => `/ledger/as-of/resource_providers/${f.provider}/${tail}?${asOf(f)}`),
    tail === 'allocations' ? EVERY_PROJECT : ADMIN_OR_SERVICE,
  )),
  guarded('GET /ledger/as-of/allocations/{consumer_uuid}', 'placement:allocations:list', read((f) => `/ledger/as-of/allocations/${f.consumerA}?${asOf(f)}`), CONSUMER_OF_A),
  {
    route: 'PATCH /ledger/allocations/{consumer_uuid}', rule: 'placement:allocations:update', cases: [{
      about: "A's consumer, at a stale generation",
      probe: staleWrite((f) => `/ledger/allocations/${f.consumerA}`, () => ({ consumer_generation: 999 }), 'application/merge-patch+json'),
      verdicts: WRITE_OF_A,
    }],
  },
  {
    route: 'POST /ledger/revert', rule: 'placement:ledger:revert', cases: [
      { about: "a plan: a request that wrote A's consumer", probe: plan('/ledger/revert', (f) => ({ request_id: f.requestA })), verdicts: UNDO_OF_A },
      { about: "a plan: a request that wrote A's and B's", probe: plan('/ledger/revert', (f) => ({ request_id: f.batchRequest })), verdicts: UNDO_OF_ALL },
    ],
  },
  {
    route: 'POST /ledger/restore', rule: 'placement:ledger:restore', cases: [
      { about: "a plan: A's consumer", probe: plan('/ledger/restore', (f) => ({ as_of: f.now, consumers: [f.consumerA] })), verdicts: UNDO_OF_A },
      { about: 'a plan: a provider', probe: plan('/ledger/restore', (f) => ({ as_of: f.now, providers: [f.provider] })), verdicts: UNDO_OF_ALL },
    ],
  },
  guarded('GET /ledger/as-of/usages', 'placement:usages', read((f) => `/ledger/as-of/usages?project_id=${f.projectA}&${asOf(f)}`), PROJECT_A_READERS),
  guarded('GET /ledger/explain/allocation_candidates', 'placement:allocation_candidates:list', read(() => '/ledger/explain/allocation_candidates?resources=VCPU:1')),

  guarded('GET /ledger/usage', 'placement:ledger:usage', read((f) => `/ledger/usage?project_id=${f.projectA}&${dayBefore(f)}`), PROJECT_A_READERS),
  guarded('GET /ledger/usage/totals', 'placement:ledger:usage', read((f) => `/ledger/usage/totals?project_id=${f.projectA}&${dayBefore(f)}`), PROJECT_A_READERS),
  open('GET /ledger/dashboard', (): Probe => ({ path: '/ledger/dashboard', accept: 'text/html', ok: 200 })),
  open('GET /ledger/console', (): Probe => ({ path: '/ledger/console', accept: 'text/html', ok: 200 })),
  guarded('GET /ledger/resource_providers/{uuid}/tree', 'placement:ledger:resource_providers:tree',
    read((f) => `/ledger/resource_providers/${f.provider}/tree`), EVERY_PROJECT),
  guarded('GET /ledger/capacity', 'placement:ledger:capacity', (): Probe => ({ path: '/ledger/capacity', ok: 200, shows: 'projects' }), EVERY_PROJECT),
];
