/** A registered rule: oslo.policy's RuleDefault with what placement gives it. */
export interface RuleDefault {
  readonly name: string;
  readonly checkStr: string;
  /** Token scopes the rule serves; empty means no scope check at all. */
  readonly scopeTypes: readonly ('project' | 'system' | 'domain')[];
  /** The legacy rule still OR-ed in while new defaults are not enforced. */
  readonly deprecated?: { readonly name: string; readonly checkStr: string };
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

const project = (name: string, checkStr: string): RuleDefault => ({ name, checkStr, scopeTypes: ['project'] });
const adminOrService = (name: string) => project(name, 'rule:admin_or_service_api');

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
  // Ours, not upstream's: the ledger's read-only endpoints (history, feed, audits, as_of), which a
  // reader may use as well as admin and service.
  project('placement:ledger:read', 'rule:admin_or_service_api or role:reader'),
];
