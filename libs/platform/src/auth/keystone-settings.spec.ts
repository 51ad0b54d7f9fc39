import { passwordAuthBody, tokensEndpoint } from './keystone-settings.js';

describe('Keystone endpoint and service credentials', () => {
  it('finds the v3 token API whether or not the auth URL names its version', () => {
    expect(tokensEndpoint('http://keystone:5000')).toBe('http://keystone:5000/v3/auth/tokens');
    expect(tokensEndpoint('http://keystone:5000/v3')).toBe('http://keystone:5000/v3/auth/tokens');
    expect(tokensEndpoint('https://cloud.example/identity/v3/')).toBe('https://cloud.example/identity/v3/auth/tokens');
    expect(tokensEndpoint('https://cloud.example/identity')).toBe('https://cloud.example/identity/v3/auth/tokens');
  });

  it('authenticates the service user by name within its domains, scoped to its project', () => {
    expect(passwordAuthBody({
      authUrl: 'http://k', username: 'placement', password: 'pw', projectName: 'service',
      userDomainName: 'Default', projectDomainName: 'infra', cacheSize: 1, cacheTimeSeconds: 300,
    })).toEqual({
      auth: {
        identity: { methods: ['password'], password: { user: { name: 'placement', domain: { name: 'Default' }, password: 'pw' } } },
        scope: { project: { name: 'service', domain: { name: 'infra' } } },
      },
    });
  });

  it('names a domain by id when only its id is configured (user_domain_id = default)', () => {
    const body = passwordAuthBody({
      authUrl: 'http://k', username: 'placement', password: 'pw', projectName: 'service',
      userDomainName: 'Default', projectDomainName: 'Default', userDomainId: 'default', projectDomainId: 'default', cacheSize: 1, cacheTimeSeconds: 300,
    }) as any;
    expect(body.auth.identity.password.user.domain).toEqual({ id: 'default' });
    expect(body.auth.scope.project.domain).toEqual({ id: 'default' });
  });
});
