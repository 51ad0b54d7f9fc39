import { dirname, isAbsolute, join } from 'node:path';
import { toPostgresUrl } from './database-url.js';
import type { IniSections, IniValue } from './ini.js';
import { isForeignSection, OPTIONS, OptionSpec } from './options.js';
import { checkValue, substitute } from './values.js';

export interface MapInput {
  /** Every file's sections merged in reading order (mergeIni). */
  readonly sections: IniSections;
  /** The files read, in order; their directories are where oslo looks for the policy file. */
  readonly files: readonly string[];
  /** The process's environment: a setting given there wins over the file. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly exists: (path: string) => boolean;
}

export interface Mapped {
  /** Environment-style settings (README: Configuration), to be placed beneath the real environment. */
  readonly settings: Record<string, string>;
  /** Options we do not know, one line each. */
  readonly warnings: string[];
  /** What was ignored or adjusted on purpose (foreign sections, dropped URL parameters). */
  readonly notices: string[];
  /** Bad values: the start stops, naming the file, section and option. */
  readonly errors: string[];
}

/** oslo.middleware's CORS defaults as upstream Placement sets them (placement/wsgi). */
const CORS_ALLOW_HEADERS = 'X-Auth-Token,X-Openstack-Request-Id,X-Identity-Status,X-Roles,X-Service-Catalog,X-User-Id,X-Tenant-Id,OpenStack-API-Version';
const CORS_EXPOSE_HEADERS = 'X-Auth-Token,X-Openstack-Request-Id,X-Subject-Token,X-Service-Token,OpenStack-API-Version';

const where = (section: string, option: string, at: IniValue) => `${at.file}: [${section}] ${option}`;

/** Sections and file names to settings: pure, so every option's mapping is a unit test. */
export function mapConfig(input: MapInput): Mapped {
  const mapped: Mapped = { settings: {}, warnings: [], notices: [], errors: [] };
  const checked = new Map<string, string>();
  const lastOf = (section: string, option: string) => input.sections.get(section)?.get(option)?.at(-1);
  const lookup = (name: string) => {
    const [section, option] = name.includes('.') ? name.split('.', 2) : ['DEFAULT', name];
    return lastOf(section, option)?.value;
  };
  for (const [section, options] of input.sections) {
    if (isForeignSection(section) && !OPTIONS[section]) {
      const first = [...options.values()][0]?.[0];
      mapped.notices.push(`${first?.file ?? input.files[0]}: [${section}] ignored (${options.size} options): Placement Ledger does not use it`);
      continue;
    }
    for (const [option, values] of options) {
      const at = values[values.length - 1];
      const spec: OptionSpec | undefined = OPTIONS[section]?.[option];
      if (!spec) {
        mapped.warnings.push(`${at.file}:${at.line}: [${section}] ${option} is not an option Placement Ledger knows; ignored`);
        continue;
      }
      const resolved = substitute(at.value, lookup);
      const result = resolved.ok ? checkValue(spec.type, resolved.value) : resolved;
      if (!result.ok) {
        mapped.errors.push(`${where(section, option, at)}: ${result.reason}`);
        continue;
      }
      checked.set(`${section}.${option}`, result.value);
      if (spec.env && spec.env !== 'special') mapped.settings[spec.env] = result.value;
    }
  }
  applySpecial(input, checked, mapped, lastOf);
  return mapped;
}

type LastOf = (section: string, option: string) => IniValue | undefined;

/** The options that are not one option to one setting. */
function applySpecial(input: MapInput, checked: Map<string, string>, mapped: Mapped, lastOf: LastOf): void {
  const value = (key: string) => checked.get(key);
  const set = mapped.settings;
  if (value('DEFAULT.debug') === 'true') set.LOG_LEVEL = 'debug';
  // [api] is auth_strategy's home; [DEFAULT] its deprecated one. Upstream's default is keystone: a
  // deployment's file that says nothing means keystone, never our development default noauth2.
  const strategy = value('api.auth_strategy') ?? value('DEFAULT.auth_strategy');
  if (input.files.length > 0) set.PLACEMENT_AUTH_STRATEGY = strategy ?? 'keystone';
  const publicUri = value('keystone_authtoken.www_authenticate_uri') ?? value('keystone_authtoken.auth_uri');
  if (publicUri) {
    set.PLACEMENT_KEYSTONE_WWW_AUTHENTICATE_URI = publicUri;
    set.PLACEMENT_KEYSTONE_AUTH_URL ??= publicUri;
  }
  const connection = value('placement_database.connection');
  if (connection !== undefined) databaseUrl(connection, lastOf('placement_database', 'connection')!, input, mapped);
  const policyFile = value('oslo_policy.policy_file');
  const policyPath = policyFile !== undefined
    ? resolvePolicyFile(policyFile, lastOf('oslo_policy', 'policy_file')!.file, input)
    : defaultPolicyFile(input);
  if (policyPath) set.PLACEMENT_POLICY_FILE = policyPath;
  if (set.PLACEMENT_CORS_ALLOWED_ORIGINS) {
    set.PLACEMENT_CORS_ALLOW_HEADERS ??= CORS_ALLOW_HEADERS;
    set.PLACEMENT_CORS_EXPOSE_HEADERS ??= CORS_EXPOSE_HEADERS;
  }
}

function databaseUrl(connection: string, at: IniValue, input: MapInput, mapped: Mapped): void {
  const result = toPostgresUrl(connection);
  if (!result.ok) {
    // A DATABASE_URL in the environment replaces the file's connection: its URL is then not used.
    if (!input.env.DATABASE_URL) mapped.errors.push(`${where('placement_database', 'connection', at)}: ${result.reason}`);
    return;
  }
  mapped.settings.DATABASE_URL = result.url;
  if (result.dropped.length > 0) {
    mapped.notices.push(`${where('placement_database', 'connection', at)}: dropped URL parameters PostgreSQL does not take: ${result.dropped.join(', ')}`);
  }
}

/** oslo finds a relative policy file beside the configuration file that names it, then beside the others. */
function resolvePolicyFile(path: string, namedIn: string, input: MapInput): string {
  if (isAbsolute(path)) return path;
  const dirs = [dirname(namedIn), ...input.files.map((file) => dirname(file))];
  return dirs.map((dir) => join(dir, path)).find(input.exists) ?? join(dirname(namedIn), path);
}

/** Upstream's default policy_file is policy.yaml, used when one lies beside a configuration file. */
function defaultPolicyFile(input: MapInput): string | undefined {
  return [...new Set(input.files.map((file) => join(dirname(file), 'policy.yaml')))].find(input.exists);
}
