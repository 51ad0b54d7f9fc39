import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('has working defaults: embedded database, noauth2, scope enforced', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8778, host: '127.0.0.1', databaseUrl: undefined, authStrategy: 'noauth2', cors: undefined });
    expect(config.policy).toEqual({ enforceNewDefaults: false, enforceScope: true, open: false, overrides: new Map() });
    expect(config).toMatchObject({ dbPoolSize: 10, dbConnectionRecycleSeconds: 3600 });
  });

  it('reads the conformance contract variables', () => {
    const config = loadConfig({
      PORT: '18001', HOST: '0.0.0.0', PLACEMENT_AUTH_STRATEGY: 'noauth2', DATABASE_URL: 'postgres://u@h:5432/db',
      PLACEMENT_POLICY_ENFORCE_NEW_DEFAULTS: 'true', PLACEMENT_POLICY_ENFORCE_SCOPE: 'false', PLACEMENT_POLICY_OPEN: 'True',
      PLACEMENT_CORS_ALLOWED_ORIGINS: 'http://a, http://b', PLACEMENT_CORS_ALLOW_HEADERS: 'openstack-api-version',
    });
    expect(config).toMatchObject({ port: 18001, host: '0.0.0.0', databaseUrl: 'postgres://u@h:5432/db' });
    expect(config.policy).toEqual({ enforceNewDefaults: true, enforceScope: false, open: true, overrides: new Map() });
    expect(config.cors).toEqual({ allowedOrigins: ['http://a', 'http://b'], allowHeaders: ['openstack-api-version'] });
  });

  it('stops on a wrong value with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(new ConfigError('PORT must be an integer from 0 to 65535, not "eighty"'));
    expect(() => loadConfig({ PLACEMENT_POLICY_OPEN: 'maybe' })).toThrow(/PLACEMENT_POLICY_OPEN/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ PLACEMENT_AUTH_STRATEGY: 'ldap' })).toThrow(/PLACEMENT_AUTH_STRATEGY/);
    expect(() => loadConfig({ PLACEMENT_DB_CONNECTION_RECYCLE_TIME: '0' })).toThrow(/PLACEMENT_DB_CONNECTION_RECYCLE_TIME/);
  });

  it('labels the capacity metrics by aggregate only when asked', () => {
    expect(loadConfig({}).metrics).toEqual({ byAggregate: false, projectUsage: false });
    expect(loadConfig({ PLACEMENT_METRICS_BY_AGGREGATE: 'true' }).metrics.byAggregate).toBe(true);
    expect(loadConfig({ PLACEMENT_METRICS_PROJECT_USAGE: 'yes' }).metrics.projectUsage).toBe(true);
    expect(() => loadConfig({ PLACEMENT_METRICS_BY_AGGREGATE: 'sometimes' })).toThrow(/PLACEMENT_METRICS_BY_AGGREGATE/);
  });
});

describe('configuration: the auth strategy', () => {
  it('defaults to noauth2 on a loopback address, the default HOST included', () => {
    expect(loadConfig({}).authStrategy).toBe('noauth2');
    for (const HOST of ['127.0.0.1', '::1', 'localhost', '127.0.0.2']) expect(loadConfig({ HOST }).authStrategy).toBe('noauth2');
  });

  it('refuses to start elsewhere without one, naming what to set', () => {
    for (const HOST of ['0.0.0.0', '::', '10.0.0.5', 'placement.example.com']) {
      expect(() => loadConfig({ HOST })).toThrow(ConfigError);
      expect(() => loadConfig({ HOST, PLACEMENT_AUTH_STRATEGY: '' })).toThrow(`PLACEMENT_AUTH_STRATEGY is not set and HOST (or --host) "${HOST}"`);
    }
    const message = (() => { try { loadConfig({ HOST: '0.0.0.0' }); } catch (error) { return (error as Error).message; } })();
    expect(message).toMatch(/Set PLACEMENT_AUTH_STRATEGY=keystone with PLACEMENT_KEYSTONE_AUTH_URL, .* or PLACEMENT_AUTH_STRATEGY=noauth2 for development and tests only$/);
  });

  it('takes an explicit strategy on any address', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PLACEMENT_AUTH_STRATEGY: 'noauth2' }).authStrategy).toBe('noauth2');
    const keystone = loadConfig({
      HOST: '0.0.0.0', PLACEMENT_AUTH_STRATEGY: 'keystone', PLACEMENT_KEYSTONE_AUTH_URL: 'http://keystone:5000/v3',
      PLACEMENT_KEYSTONE_USERNAME: 'placement', PLACEMENT_KEYSTONE_PASSWORD: 'pw', PLACEMENT_KEYSTONE_PROJECT_NAME: 'service',
    });
    expect(keystone).toMatchObject({ authStrategy: 'keystone', keystone: { authUrl: 'http://keystone:5000/v3' } });
    expect(loadConfig({ HOST: '127.0.0.1', PLACEMENT_AUTH_STRATEGY: 'keystone', PLACEMENT_KEYSTONE_AUTH_URL: 'http://k',
      PLACEMENT_KEYSTONE_USERNAME: 'u', PLACEMENT_KEYSTONE_PASSWORD: 'pw', PLACEMENT_KEYSTONE_PROJECT_NAME: 'p' }).authStrategy).toBe('keystone');
    expect(() => loadConfig({ HOST: '0.0.0.0', PLACEMENT_AUTH_STRATEGY: 'ldap' })).toThrow('PLACEMENT_AUTH_STRATEGY must be noauth2 or keystone, not "ldap"');
  });
});

describe('configuration: where the event log lives', () => {
  it('keeps the log in PostgreSQL by default', () => {
    expect(loadConfig({}).eventStore).toEqual({ kind: 'postgres' });
    expect(loadConfig({ PLACEMENT_EVENT_STORE: 'postgres', PLACEMENT_KURRENTDB_URL: 'kurrentdb://ignored:2113' }).eventStore).toEqual({ kind: 'postgres' });
  });

  it('selects KurrentDB with its connection string', () => {
    const env = { PLACEMENT_EVENT_STORE: 'kurrentdb', PLACEMENT_KURRENTDB_URL: 'kurrentdb://127.0.0.1:2113?tls=false' };
    expect(loadConfig(env).eventStore).toEqual({ kind: 'kurrentdb', url: 'kurrentdb://127.0.0.1:2113?tls=false' });
  });

  it('stops the start when KurrentDB is chosen without a usable URL, or the choice is unknown', () => {
    expect(() => loadConfig({ PLACEMENT_EVENT_STORE: 'kurrentdb' })).toThrow(new ConfigError(
      'PLACEMENT_EVENT_STORE=kurrentdb needs PLACEMENT_KURRENTDB_URL (for example kurrentdb://127.0.0.1:2113?tls=false)',
    ));
    expect(() => loadConfig({ PLACEMENT_EVENT_STORE: 'kurrentdb', PLACEMENT_KURRENTDB_URL: 'http://127.0.0.1:2113' })).toThrow(
      /^PLACEMENT_KURRENTDB_URL must be a KurrentDB connection string/,
    );
    expect(() => loadConfig({ PLACEMENT_EVENT_STORE: 'eventstore' })).toThrow(
      new ConfigError('PLACEMENT_EVENT_STORE must be postgres or kurrentdb, not "eventstore"'),
    );
  });
});
