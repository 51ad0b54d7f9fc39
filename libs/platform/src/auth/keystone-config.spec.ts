import { ConfigError, loadConfig } from '../config.js';

const keystoneEnv = {
  PLACEMENT_AUTH_STRATEGY: 'keystone',
  PLACEMENT_KEYSTONE_AUTH_URL: 'http://keystone.example:5000/v3/',
  PLACEMENT_KEYSTONE_USERNAME: 'placement',
  PLACEMENT_KEYSTONE_PASSWORD: 's3cret',
  PLACEMENT_KEYSTONE_PROJECT_NAME: 'service',
};

describe('PLACEMENT_KEYSTONE_* settings', () => {
  it('reads keystone_authtoken-like settings, with Default domains and a bounded cache by default', () => {
    expect(loadConfig(keystoneEnv).keystone).toEqual({
      authUrl: 'http://keystone.example:5000/v3', username: 'placement', password: 's3cret', projectName: 'service',
      userDomainName: 'Default', projectDomainName: 'Default', cacheSize: 10_000, cacheTimeSeconds: 300,
    });
    const custom = loadConfig({
      ...keystoneEnv, PLACEMENT_KEYSTONE_USER_DOMAIN_NAME: 'services', PLACEMENT_KEYSTONE_PROJECT_DOMAIN_NAME: 'infra',
      PLACEMENT_KEYSTONE_CACHE_SIZE: '0',
    });
    expect(custom.keystone).toMatchObject({ userDomainName: 'services', projectDomainName: 'infra', cacheSize: 0 });
  });

  it('has no keystone settings under noauth2, whatever the environment holds', () => {
    expect(loadConfig({ ...keystoneEnv, PLACEMENT_AUTH_STRATEGY: 'noauth2' }).keystone).toBeUndefined();
  });

  it('stops the start naming every missing setting', () => {
    expect(() => loadConfig({ PLACEMENT_AUTH_STRATEGY: 'keystone', PLACEMENT_KEYSTONE_USERNAME: 'placement' })).toThrow(new ConfigError(
      'PLACEMENT_AUTH_STRATEGY=keystone needs PLACEMENT_KEYSTONE_AUTH_URL, PLACEMENT_KEYSTONE_PASSWORD, PLACEMENT_KEYSTONE_PROJECT_NAME ' +
      "(Keystone's URL and the service user's credentials; in placement.conf: [keystone_authtoken] auth_url, password, project_name)"));
    expect(() => loadConfig({ ...keystoneEnv, PLACEMENT_KEYSTONE_PASSWORD: '' })).toThrow(/needs PLACEMENT_KEYSTONE_PASSWORD \(/);
  });

  it('trusts a validation for PLACEMENT_KEYSTONE_CACHE_TIME seconds, 300 as keystonemiddleware unless set, 0 to a day', () => {
    expect(loadConfig({ ...keystoneEnv, PLACEMENT_KEYSTONE_CACHE_TIME: '2' }).keystone?.cacheTimeSeconds).toBe(2);
    expect(loadConfig({ ...keystoneEnv, PLACEMENT_KEYSTONE_CACHE_TIME: '0' }).keystone?.cacheTimeSeconds).toBe(0);
    expect(loadConfig({ ...keystoneEnv, PLACEMENT_KEYSTONE_CACHE_TIME: '86400' }).keystone?.cacheTimeSeconds).toBe(86_400);
    for (const bad of ['-1', '86401', '5m', '1.5']) {
      expect(() => loadConfig({ ...keystoneEnv, PLACEMENT_KEYSTONE_CACHE_TIME: bad }))
        .toThrow(new ConfigError(`PLACEMENT_KEYSTONE_CACHE_TIME must be an integer from 0 to 86400, not "${bad}"`));
    }
  });

  it('refuses credentials in a Keystone URL, naming the URL without its password', () => {
    for (const url of ['http://placement:s3cret@keystone:5000/v3', 'http://placement:s3/cr@et@keystone:5000/v3']) {
      expect(() => loadConfig({ ...keystoneEnv, PLACEMENT_KEYSTONE_AUTH_URL: url }))
        .toThrow(new ConfigError('PLACEMENT_KEYSTONE_AUTH_URL must be an http:// or https:// URL without user:password@, not "http://placement:***@keystone:5000/v3"'));
    }
    expect(() => loadConfig({ ...keystoneEnv, PLACEMENT_KEYSTONE_WWW_AUTHENTICATE_URI: 'https://u:pw@public:5000' }))
      .toThrow('PLACEMENT_KEYSTONE_WWW_AUTHENTICATE_URI must be an http:// or https:// URL without user:password@, not "https://u:***@public:5000"');
  });

  it('stops the start on a wrong URL or cache size', () => {
    expect(() => loadConfig({ ...keystoneEnv, PLACEMENT_KEYSTONE_AUTH_URL: 'keystone:5000' }))
      .toThrow(new ConfigError('PLACEMENT_KEYSTONE_AUTH_URL must be an http:// or https:// URL without user:password@, not "keystone:5000"'));
    expect(() => loadConfig({ ...keystoneEnv, PLACEMENT_KEYSTONE_CACHE_SIZE: '-1' })).toThrow(/PLACEMENT_KEYSTONE_CACHE_SIZE must be an integer/);
    expect(() => loadConfig({ ...keystoneEnv, PLACEMENT_KEYSTONE_CACHE_SIZE: 'lots' })).toThrow(/PLACEMENT_KEYSTONE_CACHE_SIZE/);
  });
});

describe('Keystone settings a deployment\'s placement.conf carries', () => {
  it('reads the Keystone options a deployment\'s placement.conf carries: public URI and domain ids', () => {
    const keystone = {
      PLACEMENT_AUTH_STRATEGY: 'keystone', PLACEMENT_KEYSTONE_AUTH_URL: 'http://internal:5000', PLACEMENT_KEYSTONE_USERNAME: 'placement',
      PLACEMENT_KEYSTONE_PASSWORD: 'pw', PLACEMENT_KEYSTONE_PROJECT_NAME: 'service',
    };
    expect(loadConfig({ ...keystone, PLACEMENT_KEYSTONE_WWW_AUTHENTICATE_URI: 'https://public:5000/', PLACEMENT_KEYSTONE_USER_DOMAIN_ID: 'default' }).keystone)
      .toMatchObject({ wwwAuthenticateUri: 'https://public:5000', userDomainId: 'default', projectDomainName: 'Default' });
    expect(loadConfig({ ...keystone, PLACEMENT_KEYSTONE_USER_DOMAIN_ID: 'd1', PLACEMENT_KEYSTONE_USER_DOMAIN_NAME: 'Users' }).keystone)
      .not.toHaveProperty('userDomainId');
    expect(() => loadConfig({ ...keystone, PLACEMENT_KEYSTONE_WWW_AUTHENTICATE_URI: 'keystone' })).toThrow(/PLACEMENT_KEYSTONE_WWW_AUTHENTICATE_URI/);
  });
});
