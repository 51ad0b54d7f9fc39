/** A registered rule: oslo.policy's RuleDefault with what placement gives it. */
export interface RuleDefault {
  readonly name: string;
  readonly checkStr: string;
  /** Token scopes the rule serves; empty means no scope check at all. */
  readonly scopeTypes: readonly ('project' | 'system' | 'domain')[];
  /** The legacy rule still OR-ed in while new defaults are not enforced. */
  readonly deprecated?: { readonly name: string; readonly checkStr: string };
  /** What the rule guards, for the sample policy file; the operations come from route-policies.ts. */
  readonly description?: string;
}

export const ADMIN_API = 'admin_api';

/**
 * Upstream's base.py: every derived base rule replaced the Wallaby-era "role:admin", which
 * (named, oddly, "rule:admin_api") stays OR-ed in until enforce_new_defaults.
 */
const LEGACY_ADMIN = { name: 'rule:admin_api', checkStr: 'role:admin' } as const;

const base: RuleDefault[] = [
  { name: ADMIN_API, checkStr: 'role:admin', scopeTypes: ['project'] },
  { name: 'service_api', checkStr: 'role:service', scopeTypes: ['project'], deprecated: LEGACY_ADMIN },
  { name: 'admin_or_service_api', checkStr: 'role:admin or role:service', scopeTypes: ['project'], deprecated: LEGACY_ADMIN },
  { name: 'project_reader_api', checkStr: 'role:reader and project_id:%(project_id)s', scopeTypes: [], deprecated: LEGACY_ADMIN },
  {
    name: 'admin_or_project_reader_or_service_api',
    checkStr: 'role:admin or rule:project_reader_api or role:service',
    scopeTypes: ['project'],
    deprecated: LEGACY_ADMIN,
  },
];

const project = (name: string, checkStr: string, description?: string): RuleDefault => ({
  name, checkStr, scopeTypes: ['project'], ...(description ? { description } : {}),
});
const adminOrService = (name: string) => project(name, 'rule:admin_or_service_api');

/**
 * Ours, not upstream's: the ledger's reads, each guarded by default as the upstream GET showing
 * the same data (admin or service; a project's reader for its own usage). The time-travel and
 * explain routes are guarded by the very rule of the GET they mirror (route-policies.ts), so
 * they can never show more than it. Its writes that undo an incident (revert, restore) can touch
 * any provider and consumer, so they are the admin's alone.
 */
const LEDGER_RULES: readonly RuleDefault[] = [
  project('placement:ledger:resource_providers:history', 'rule:admin_or_service_api',
    "A provider's events; each consumer they name judged against its own project and user when the event was written."),
  project('placement:ledger:resource_providers:tree', 'rule:admin_or_service_api',
    "A provider's whole tree with usage and the consumers holding allocations on it, each judged against its own project."),
  project('placement:ledger:consumers:history', 'rule:admin_or_service_api',
    "A consumer's events, judged against the consumer's own project and user at each event."),
  project('placement:ledger:events', 'rule:admin_or_service_api',
    'The global event feed; a caller allowed for its own project only gets the events of its projects\' consumers.'),
  project('placement:ledger:audit:provider_claims', 'rule:admin_or_service_api',
    'Consumers holding allocations on a provider, each judged against its own project.'),
  project('placement:ledger:audit:request', 'rule:admin_or_service_api',
    'The events one request wrote, each judged against the project of the consumer it changed.'),
  project('placement:ledger:audit:stale_consumers', 'rule:admin_or_service_api',
    'Consumers whose allocations nobody rewrote for a while, each judged against its own project.'),
  project('placement:ledger:usage', 'rule:admin_or_project_reader_or_service_api',
    "A project's usage over time, judged against the project asked for (as GET /usages)."),
  project('placement:ledger:capacity', 'rule:admin_or_service_api',
    'Capacity and usage per resource class and aggregate, with the projects using most, each judged against its own project.'),
  project('placement:ledger:revert', 'rule:admin_api',
    'Plan or apply the revert of one request: the streams it changed taken back to just before it, each consumer judged '
    + 'against its project now and then; providers only for who may act for every project.'),
  project('placement:ledger:restore', 'rule:admin_api',
    'Plan or apply the restore of providers and consumers to their state at a past moment, each consumer judged '
    + 'against its project now and then; providers only for who may act for every project.'),
  project('placement:api_description:show', 'rule:admin_or_service_api', 'The OpenAPI description of the routes (/openapi.json).'),
];

/** Upstream master's defaults (placement-docs/policy-defaults-head.tsv), in its order. */
export const DEFAULT_RULES: readonly RuleDefault[] = [
  ...base,
  ...['list', 'create', 'show', 'update', 'delete'].map((op) => adminOrService(`placement:resource_providers:${op}`)),
  ...['list', 'create', 'show', 'update', 'delete'].map((op) => adminOrService(`placement:resource_classes:${op}`)),
  ...['list', 'create', 'show', 'update', 'delete'].map((op) => adminOrService(`placement:resource_providers:inventories:${op}`)),
  ...['list', 'update'].map((op) => adminOrService(`placement:resource_providers:aggregates:${op}`)),
  adminOrService('placement:resource_providers:usages'),
  project('placement:usages', 'rule:admin_or_project_reader_or_service_api'),
  ...['list', 'show', 'update', 'delete'].map((op) => adminOrService(`placement:traits:${op}`)),
  ...['list', 'update', 'delete'].map((op) => adminOrService(`placement:resource_providers:traits:${op}`)),
  ...['manage', 'list', 'update', 'delete'].map((op) => adminOrService(`placement:allocations:${op}`)),
  adminOrService('placement:resource_providers:allocations:list'),
  adminOrService('placement:allocation_candidates:list'),
  project('placement:reshaper:reshape', 'rule:service_api'),
  ...LEDGER_RULES,
];
