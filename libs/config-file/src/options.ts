/**
 * The options of upstream Placement's placement.conf that Placement Ledger knows: their oslo.config
 * type, and the setting (an environment variable of the README's Configuration table) each sets.
 * `env: null` marks an option upstream registers that we accept and ignore, so a deployment's
 * usual file reads without a warning; anything not listed here is warned about once.
 */
export type OptionType =
  | { readonly kind: 'bool' }
  | { readonly kind: 'int'; readonly min?: number }
  | { readonly kind: 'str' }
  | { readonly kind: 'choice'; readonly choices: readonly string[] }
  | { readonly kind: 'list' };

export interface OptionSpec {
  readonly type: OptionType;
  /** The setting it maps onto; null: accepted, no effect; 'special': the mapper converts it itself. */
  readonly env: string | null | 'special';
}

const bool = (env: OptionSpec['env']): OptionSpec => ({ type: { kind: 'bool' }, env });
const int = (env: OptionSpec['env'], min?: number): OptionSpec => ({ type: { kind: 'int', min }, env });
const str = (env: OptionSpec['env']): OptionSpec => ({ type: { kind: 'str' }, env });
const list = (env: OptionSpec['env']): OptionSpec => ({ type: { kind: 'list' }, env });
const choice = (env: OptionSpec['env'], ...choices: string[]): OptionSpec => ({ type: { kind: 'choice', choices }, env });
/** Accepted as any string and ignored. */
const ignored = (...names: string[]) => Object.fromEntries(names.map((name) => [name, str(null)]));

const AUTH_STRATEGIES = ['keystone', 'noauth2'] as const;
const GENERATION_STRATEGIES = ['depth-first', 'breadth-first'] as const;

export const OPTIONS: Readonly<Record<string, Readonly<Record<string, OptionSpec>>>> = {
  DEFAULT: {
    debug: bool('special'),
    // [api] auth_strategy's deprecated home, still read by upstream.
    auth_strategy: choice('special', ...AUTH_STRATEGIES),
    // oslo.log, oslo.messaging and paths: how upstream logs and where it keeps state; we log JSON to stdout.
    ...ignored(
      'log_file', 'log_dir', 'use_stderr', 'use_syslog', 'use_journal', 'use_json', 'use_eventlog', 'log_config_append',
      'log_date_format', 'syslog_log_facility', 'logging_context_format_string', 'logging_default_format_string',
      'logging_debug_format_suffix', 'logging_exception_prefix', 'logging_user_identity_format', 'default_log_levels',
      'publish_errors', 'instance_format', 'instance_uuid_format', 'fatal_deprecations', 'rate_limit_interval',
      'rate_limit_burst', 'rate_limit_except_level', 'log_rotation_type', 'max_logfile_count', 'max_logfile_size_mb',
      'log_rotate_interval', 'log_rotate_interval_type', 'watch_log_file', 'log_options', 'state_path', 'pybasedir',
      'tempdir', 'transport_url', 'control_exchange', 'verbose', 'host', 'my_ip',
    ),
  },
  api: { auth_strategy: choice('PLACEMENT_AUTH_STRATEGY', ...AUTH_STRATEGIES) },
  placement_database: {
    connection: str('special'),
    max_pool_size: int('PLACEMENT_DB_POOL_SIZE', 1),
    connection_recycle_time: int('PLACEMENT_DB_CONNECTION_RECYCLE_TIME', 1),
    // oslo.db's tuning of SQLAlchemy's pool and MySQL; sync_on_startup: we always migrate at start.
    ...ignored(
      'connection_parameters', 'sqlite_synchronous', 'slave_connection', 'mysql_sql_mode', 'mysql_wsrep_sync_wait',
      'mysql_enable_ndb', 'max_retries', 'retry_interval', 'max_overflow', 'connection_debug',
      'connection_trace', 'pool_timeout', 'sync_on_startup', 'db_retry_interval', 'db_max_retries', 'db_inc_retry_interval',
      'db_max_retry_interval', 'use_db_reconnect', 'backend',
    ),
  },
  keystone_authtoken: {
    auth_url: str('PLACEMENT_KEYSTONE_AUTH_URL'),
    www_authenticate_uri: str('special'),
    auth_uri: str('special'),
    username: str('PLACEMENT_KEYSTONE_USERNAME'),
    password: str('PLACEMENT_KEYSTONE_PASSWORD'),
    project_name: str('PLACEMENT_KEYSTONE_PROJECT_NAME'),
    user_domain_name: str('PLACEMENT_KEYSTONE_USER_DOMAIN_NAME'),
    project_domain_name: str('PLACEMENT_KEYSTONE_PROJECT_DOMAIN_NAME'),
    user_domain_id: str('PLACEMENT_KEYSTONE_USER_DOMAIN_ID'),
    project_domain_id: str('PLACEMENT_KEYSTONE_PROJECT_DOMAIN_ID'),
    // keystonemiddleware's caching, TLS and catalog options: our token cache is in memory (README: Authentication).
    ...ignored(
      'auth_type', 'auth_section', 'auth_version', 'interface', 'region_name', 'service_type', 'memcached_servers',
      'memcache_security_strategy', 'memcache_secret_key', 'memcache_use_advanced_pool', 'memcache_pool_maxsize',
      'memcache_pool_socket_timeout', 'memcache_pool_unused_timeout', 'memcache_pool_conn_get_timeout',
      'memcache_pool_dead_retry', 'memcache_tls_enabled', 'token_cache_time', 'service_token_roles',
      'service_token_roles_required', 'cafile', 'certfile', 'keyfile', 'insecure', 'delay_auth_decision',
      'http_connect_timeout', 'http_request_max_retries', 'include_service_catalog', 'enforce_token_bind', 'cache',
      'user_id', 'user_domain', 'project_id', 'project_domain', 'domain_id', 'domain_name', 'system_scope', 'trust_id',
      'default_domain_id', 'default_domain_name', 'timeout', 'collect_timing', 'split_loggers', 'identity_uri',
      'admin_user', 'admin_password', 'admin_tenant_name', 'admin_token', 'signing_dir', 'hash_algorithms', 'auth_port',
      'auth_protocol', 'auth_host', 'auth_admin_prefix', 'check_revocations_for_cached', 'revocation_cache_time',
    ),
  },
  placement: {
    randomize_allocation_candidates: bool('PLACEMENT_RANDOMIZE_ALLOCATION_CANDIDATES'),
    incomplete_consumer_project_id: str('PLACEMENT_INCOMPLETE_CONSUMER_PROJECT_ID'),
    incomplete_consumer_user_id: str('PLACEMENT_INCOMPLETE_CONSUMER_USER_ID'),
    allocation_conflict_retry_count: int('PLACEMENT_ALLOCATION_CONFLICT_RETRY_COUNT', 1),
    max_allocation_candidates: int('PLACEMENT_MAX_ALLOCATION_CANDIDATES', -1),
    allocation_candidates_generation_strategy: choice('PLACEMENT_ALLOCATION_CANDIDATES_GENERATION_STRATEGY', ...GENERATION_STRATEGIES),
  },
  oslo_policy: {
    policy_file: str('special'),
    enforce_scope: bool('PLACEMENT_POLICY_ENFORCE_SCOPE'),
    enforce_new_defaults: bool('PLACEMENT_POLICY_ENFORCE_NEW_DEFAULTS'),
    ...ignored(
      'policy_default_rule', 'policy_dirs', 'remote_content_type', 'remote_ssl_verify_server_crt', 'remote_ssl_ca_crt_file',
      'remote_ssl_client_crt_file', 'remote_ssl_client_key_file', 'remote_timeout',
    ),
  },
  cors: {
    allowed_origin: list('PLACEMENT_CORS_ALLOWED_ORIGINS'),
    allow_headers: list('PLACEMENT_CORS_ALLOW_HEADERS'),
    expose_headers: list('PLACEMENT_CORS_EXPOSE_HEADERS'),
    max_age: int('PLACEMENT_CORS_MAX_AGE', 0),
    // We always allow credentials and echo the requested method, as upstream's defaults do.
    allow_credentials: bool(null),
    allow_methods: list(null),
  },
  workarounds: {
    // Upstream's fix for a slow path (bug 2126751) our candidate search does not have: validated, no effect.
    optimize_for_wide_provider_trees: bool(null),
  },
  oslo_middleware: { enable_proxy_headers_parsing: bool(null), max_request_body_size: int(null) },
};

/**
 * Sections deployment tools write into every service's file (messaging, locks, profiling,
 * health checks): noted once per section instead of a warning per option.
 */
export function isForeignSection(section: string): boolean {
  return section.startsWith('oslo_messaging_') || FOREIGN_SECTIONS.has(section);
}

const FOREIGN_SECTIONS = new Set([
  'oslo_concurrency', 'profiler', 'healthcheck', 'database', 'cache', 'oslo_reports', 'wsgi', 'audit_middleware_notifications',
  'oslo_limit', 'privsep', 'ssl', 'vault', 'barbican', 'key_manager', 'placement_api', 'keystone', 'service_user',
]);
