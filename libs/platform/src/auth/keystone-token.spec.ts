import recorded from '../../../../test/support/keystone/keystone-v3-recorded.json';
import { identityOf, parseIsoTime, parseKeystoneToken } from './keystone-token.js';

const body = (name: keyof typeof recorded.validations) => recorded.validations[name].body;

describe('Keystone v3 token bodies', () => {
  it('reads a project-scoped token: user, project, domains, implied roles, times', () => {
    const token = parseKeystoneToken(body('admin'));
    expect(token).toEqual({
      userId: 'e2683e8ff1594a32806b98bad354be4c',
      userDomainId: 'default',
      projectId: 'f3673bafc9714a7f803df073dde099fc',
      projectDomainId: 'default',
      domainId: null,
      roles: ['reader', 'admin', 'member'],
      systemScope: false,
      issuedAt: Date.parse('2026-11-21T07:27:50Z'),
      expiresAt: Date.parse('2026-11-21T08:27:50Z'),
    });
  });

  it('takes system scope from token.system.all, with no project', () => {
    const identity = identityOf(parseKeystoneToken(body('systemAdmin'))!);
    expect(identity).toMatchObject({ systemScope: true, projectId: null, domainId: null, roles: ['admin', 'member', 'reader'] });
  });

  it('takes the domain of a domain-scoped token', () => {
    const identity = identityOf(parseKeystoneToken(body('domainAdmin'))!);
    expect(identity).toMatchObject({ systemScope: false, projectId: null, domainId: 'default', userDomainId: 'default' });
  });

  it('reads a reader and a service user as Keystone issued them', () => {
    expect(identityOf(parseKeystoneToken(body('reader'))!)).toEqual({
      userId: 'd55f1cd7977d46e8a4c1c90952f1da56', projectId: 'c7bce881af01497cad5820c08a09d061', roles: ['reader'],
      systemScope: false, domainId: null, userDomainId: 'default', projectDomainId: 'default',
    });
    expect(parseKeystoneToken(recorded.passwordAuth.response.body)?.roles).toEqual(['service']);
  });

  it('reads the times Keystone writes, with or without microseconds and zone', () => {
    expect(parseIsoTime('2026-11-21T08:27:50.000000Z')).toBe(Date.UTC(2026, 10, 21, 8, 27, 50));
    // An application credential's token, as POST /v3/auth/tokens returns it: no zone means UTC.
    expect(parseIsoTime('2026-11-21T07:26:51')).toBe(Date.UTC(2026, 10, 21, 7, 26, 51));
    expect(parseIsoTime('2026-11-21T07:26:51.123456+01:00')).toBe(Date.UTC(2026, 10, 21, 6, 26, 51, 123));
    expect(parseIsoTime('tomorrow')).toBeNull();
    expect(parseIsoTime(1795246076)).toBeNull();
  });

  it('refuses bodies that are not v3 tokens', () => {
    expect(parseKeystoneToken(recorded.bogus.body)).toBeNull();
    expect(parseKeystoneToken(null)).toBeNull();
    expect(parseKeystoneToken({ token: { user: { id: 'u' }, roles: [] } })).toBeNull(); // no expires_at
    expect(parseKeystoneToken({ token: { user: {}, roles: [], expires_at: '2026-11-21T08:27:50Z' } })).toBeNull();
    expect(parseKeystoneToken({ token: { user: { id: 'u' }, roles: 'admin', expires_at: '2026-11-21T08:27:50Z' } })).toBeNull();
  });
});
