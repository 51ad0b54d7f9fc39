import { mergeIni, parseIni } from './ini.js';
import { mapConfig, MapInput } from './map-config.js';

const FILE = '/etc/placement/placement.conf';

/** Maps one or more files' texts; `exists` answers for the policy files a test puts beside them. */
function map(texts: string | Record<string, string>, env: Record<string, string> = {}, present: string[] = []) {
  const byFile = typeof texts === 'string' ? { [FILE]: texts } : texts;
  const files = Object.keys(byFile);
  const input: MapInput = {
    sections: mergeIni(files.map((file) => parseIni(byFile[file], file))),
    files, env, exists: (path) => present.includes(path),
  };
  return mapConfig(input);
}

describe('mapConfig: placement.conf options onto our settings', () => {
  it('maps a kolla-style file', () => {
    const mapped = map(`
[DEFAULT]
debug = False
log_dir = /var/log/kolla/placement
transport_url = rabbit://openstack:x@10.0.0.1:5672//

[api]
auth_strategy = keystone

[placement_database]
connection = postgresql+psycopg2://placement:s3cret@db.example:5432/placement?sslmode=require&charset=utf8
max_pool_size = 20
connection_recycle_time = 600
max_retries = -1

[keystone_authtoken]
service_type = placement
www_authenticate_uri = http://keystone.example:5000
auth_url = http://keystone-internal.example:5000
auth_type = password
project_domain_id = default
user_domain_id = default
project_name = service
username = placement
password = pw#1
memcached_servers = 10.0.0.1:11211
region_name = RegionOne

[placement]
randomize_allocation_candidates = True
incomplete_consumer_project_id = 11111111-1111-1111-1111-111111111111
incomplete_consumer_user_id = 22222222-2222-2222-2222-222222222222
allocation_conflict_retry_count = 20
max_allocation_candidates = 1000
allocation_candidates_generation_strategy = breadth-first

[oslo_policy]
policy_file = /etc/placement/policy.yaml
enforce_scope = false
enforce_new_defaults = NO

[workarounds]
optimize_for_wide_provider_trees = on

[oslo_messaging_notifications]
driver = noop
`);
    expect(mapped.errors).toEqual([]);
    expect(mapped.warnings).toEqual([]);
    expect(mapped.settings).toEqual({
      PLACEMENT_AUTH_STRATEGY: 'keystone',
      DATABASE_URL: 'postgresql://placement:s3cret@db.example:5432/placement?sslmode=require',
      PLACEMENT_DB_POOL_SIZE: '20',
      PLACEMENT_DB_CONNECTION_RECYCLE_TIME: '600',
      PLACEMENT_KEYSTONE_AUTH_URL: 'http://keystone-internal.example:5000',
      PLACEMENT_KEYSTONE_WWW_AUTHENTICATE_URI: 'http://keystone.example:5000',
      PLACEMENT_KEYSTONE_USER_DOMAIN_ID: 'default',
      PLACEMENT_KEYSTONE_PROJECT_DOMAIN_ID: 'default',
      PLACEMENT_KEYSTONE_PROJECT_NAME: 'service',
      PLACEMENT_KEYSTONE_USERNAME: 'placement',
      PLACEMENT_KEYSTONE_PASSWORD: 'pw#1',
      PLACEMENT_RANDOMIZE_ALLOCATION_CANDIDATES: 'true',
      PLACEMENT_INCOMPLETE_CONSUMER_PROJECT_ID: '11111111-1111-1111-1111-111111111111',
      PLACEMENT_INCOMPLETE_CONSUMER_USER_ID: '22222222-2222-2222-2222-222222222222',
      PLACEMENT_ALLOCATION_CONFLICT_RETRY_COUNT: '20',
      PLACEMENT_MAX_ALLOCATION_CANDIDATES: '1000',
      PLACEMENT_ALLOCATION_CANDIDATES_GENERATION_STRATEGY: 'breadth-first',
      PLACEMENT_POLICY_FILE: '/etc/placement/policy.yaml',
      PLACEMENT_POLICY_ENFORCE_SCOPE: 'false',
      PLACEMENT_POLICY_ENFORCE_NEW_DEFAULTS: 'false',
    });
    expect(mapped.notices).toEqual([
      `${FILE}: [oslo_messaging_notifications] ignored (1 options): Placement Ledger does not use it`,
      `${FILE}: [placement_database] connection: dropped URL parameters PostgreSQL does not take: charset`,
    ]);
  });

  it('turns [DEFAULT] debug on into LOG_LEVEL=debug, and off into nothing', () => {
    expect(map('[DEFAULT]\ndebug = TRUE\n').settings.LOG_LEVEL).toBe('debug');
    expect(map('[DEFAULT]\ndebug = false\n').settings.LOG_LEVEL).toBeUndefined();
  });

  it('means keystone when a file names no auth_strategy, as upstream; reads the deprecated [DEFAULT] auth_strategy', () => {
    expect(map('[placement]\n').settings.PLACEMENT_AUTH_STRATEGY).toBe('keystone');
    expect(map('[DEFAULT]\nauth_strategy = noauth2\n').settings.PLACEMENT_AUTH_STRATEGY).toBe('noauth2');
    expect(map('[DEFAULT]\nauth_strategy = keystone\n[api]\nauth_strategy = noauth2\n').settings.PLACEMENT_AUTH_STRATEGY).toBe('noauth2');
    expect(map({}).settings).toEqual({});
  });

  it('takes www_authenticate_uri (or the older auth_uri) as auth_url when there is none', () => {
    expect(map('[keystone_authtoken]\nwww_authenticate_uri = http://ks:5000/v3\n').settings).toMatchObject({
      PLACEMENT_KEYSTONE_AUTH_URL: 'http://ks:5000/v3', PLACEMENT_KEYSTONE_WWW_AUTHENTICATE_URI: 'http://ks:5000/v3',
    });
    expect(map('[keystone_authtoken]\nauth_uri = http://old:5000\n').settings.PLACEMENT_KEYSTONE_AUTH_URL).toBe('http://old:5000');
    expect(map('[keystone_authtoken]\nuser_domain_name = Users\nproject_domain_name = Projects\n').settings).toMatchObject({
      PLACEMENT_KEYSTONE_USER_DOMAIN_NAME: 'Users', PLACEMENT_KEYSTONE_PROJECT_DOMAIN_NAME: 'Projects',
    });
  });

  it('maps [cors], with upstream Placement\'s default headers when the file names origins only', () => {
    const full = map('[cors]\nallowed_origin = http://a, http://b\nallow_headers = X-Auth-Token\nexpose_headers = X-Openstack-Request-Id\nmax_age = 3600\nallow_credentials = true\n');
    expect(full.settings).toMatchObject({
      PLACEMENT_CORS_ALLOWED_ORIGINS: 'http://a,http://b', PLACEMENT_CORS_ALLOW_HEADERS: 'X-Auth-Token',
      PLACEMENT_CORS_EXPOSE_HEADERS: 'X-Openstack-Request-Id', PLACEMENT_CORS_MAX_AGE: '3600',
    });
    const origins = map('[cors]\nallowed_origin = http://a\n').settings;
    expect(origins.PLACEMENT_CORS_ALLOW_HEADERS).toContain('OpenStack-API-Version');
    expect(origins.PLACEMENT_CORS_EXPOSE_HEADERS).toContain('X-Openstack-Request-Id');
  });

  it('accepts every PostgreSQL spelling of connection, and substitutes $options as oslo.config does', () => {
    for (const url of ['postgresql+psycopg2://u:p@h/db', 'postgresql://u:p@h/db', 'postgres://u:p@h/db']) {
      expect(map(`[placement_database]\nconnection = ${url}\n`).settings.DATABASE_URL).toBe('postgresql://u:p@h/db');
    }
    const text = '[DEFAULT]\ndb_host = 10.0.0.9\n[placement_database]\nconnection = postgresql://u:pa$$w@${db_host}/placement\n';
    expect(map(text).settings.DATABASE_URL).toBe('postgresql://u:pa$w@10.0.0.9/placement');
  });

  it('refuses a MySQL connection with the way to import it, unless DATABASE_URL replaces it', () => {
    const text = '[placement_database]\nconnection = mysql+pymysql://placement:pw@10.0.0.1/placement\n';
    const [error] = map(text).errors;
    expect(error).toMatch(`${FILE}: [placement_database] connection: mysql is upstream Placement's store; Placement Ledger keeps its live data in PostgreSQL`);
    expect(error).toContain('`placement-admin import --from mysql+pymysql://placement:***@10.0.0.1/placement`, which reads MySQL');
    expect(map('[placement_database]\nconnection = mysql://u@h/p\n').errors).toHaveLength(1);
    expect(map(text, { DATABASE_URL: 'postgres://u@h/db' }).errors).toEqual([]);
    expect(map('[placement_database]\nconnection = sqlite:///tmp/p.db\n').errors[0]).toMatch(/sqlite:\/\/ is not supported/);
  });

  it('resolves a relative policy_file against the file naming it, and uses a policy.yaml found beside the files', () => {
    const dir = { '/etc/placement/placement.conf': '[placement]\n', '/etc/placement/conf.d/10-policy.conf': '[oslo_policy]\npolicy_file = rules.yaml\n' };
    expect(map(dir, {}, ['/etc/placement/conf.d/rules.yaml']).settings.PLACEMENT_POLICY_FILE).toBe('/etc/placement/conf.d/rules.yaml');
    expect(map(dir, {}, ['/etc/placement/rules.yaml']).settings.PLACEMENT_POLICY_FILE).toBe('/etc/placement/rules.yaml');
    expect(map(dir, {}, []).settings.PLACEMENT_POLICY_FILE).toBe('/etc/placement/conf.d/rules.yaml');
    expect(map('[placement]\n', {}, ['/etc/placement/policy.yaml']).settings.PLACEMENT_POLICY_FILE).toBe('/etc/placement/policy.yaml');
    expect(map('[placement]\n', {}, []).settings.PLACEMENT_POLICY_FILE).toBeUndefined();
  });

  it('warns once per option it does not know, naming file, line, section and option', () => {
    const mapped = map('[placement]\nmax_allocation_candidate = 5\n[made_up]\na = 1\nb = 2\n');
    expect(mapped.warnings).toEqual([
      `${FILE}:2: [placement] max_allocation_candidate is not an option Placement Ledger knows; ignored`,
      `${FILE}:4: [made_up] a is not an option Placement Ledger knows; ignored`,
      `${FILE}:5: [made_up] b is not an option Placement Ledger knows; ignored`,
    ]);
    expect(mapped.errors).toEqual([]);
  });

  it('notes sections of other services once each, whatever they hold', () => {
    const mapped = map('[oslo_concurrency]\nlock_path = /tmp\n[profiler]\nenabled = false\nhmac_keys = x\n[healthcheck]\nbackends = y\n');
    expect(mapped.warnings).toEqual([]);
    expect(mapped.notices).toHaveLength(3);
    expect(mapped.notices[1]).toBe(`${FILE}: [profiler] ignored (2 options): Placement Ledger does not use it`);
  });

  it('stops on a bad value, naming file, section and option, all of them at once', () => {
    const mapped = map(`
[DEFAULT]
debug = sometimes
[api]
auth_strategy = ldap
[placement]
randomize_allocation_candidates = 2
max_allocation_candidates = many
allocation_conflict_retry_count = 0
allocation_candidates_generation_strategy = Depth-First
[oslo_policy]
enforce_scope = maybe
[cors]
max_age = 1h
[workarounds]
optimize_for_wide_provider_trees = perhaps
[placement_database]
connection = postgresql://u@$nowhere/db
`);
    expect(mapped.errors).toEqual([
      `${FILE}: [DEFAULT] debug: "sometimes" is not a boolean (true/false, yes/no, on/off, 1/0)`,
      `${FILE}: [api] auth_strategy: "ldap" is not one of keystone, noauth2`,
      `${FILE}: [placement] randomize_allocation_candidates: "2" is not a boolean (true/false, yes/no, on/off, 1/0)`,
      `${FILE}: [placement] max_allocation_candidates: "many" is not an integer`,
      `${FILE}: [placement] allocation_conflict_retry_count: 0 is below the minimum 1`,
      `${FILE}: [placement] allocation_candidates_generation_strategy: "Depth-First" is not one of depth-first, breadth-first`,
      `${FILE}: [oslo_policy] enforce_scope: "maybe" is not a boolean (true/false, yes/no, on/off, 1/0)`,
      `${FILE}: [cors] max_age: "1h" is not an integer`,
      `${FILE}: [workarounds] optimize_for_wide_provider_trees: "perhaps" is not a boolean (true/false, yes/no, on/off, 1/0)`,
      `${FILE}: [placement_database] connection: refers to $nowhere, which is not set`,
    ]);
  });

  it('names the file a bad value came from when several are read', () => {
    const mapped = map({ '/a/placement.conf': '[placement]\nmax_allocation_candidates = 5\n', '/a/conf.d/z.conf': '[placement]\nmax_allocation_candidates = x\n' });
    expect(mapped.errors).toEqual(['/a/conf.d/z.conf: [placement] max_allocation_candidates: "x" is not an integer']);
  });
});
