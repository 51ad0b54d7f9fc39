import { Identity, ServiceIdentity } from './identity.js';

/** What a Keystone v3 token body says about its holder, in the terms we use. */
export interface KeystoneToken {
  readonly userId: string;
  readonly userDomainId: string | null;
  readonly projectId: string | null;
  readonly projectDomainId: string | null;
  readonly domainId: string | null;
  /** Names, implied roles included: Keystone expands them (admin -> member -> reader). */
  readonly roles: readonly string[];
  readonly systemScope: boolean;
  /** Milliseconds since the epoch. */
  readonly issuedAt: number;
  readonly expiresAt: number;
}

const ISO_TIME = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:?\d\d)?$/;

/**
 * Keystone writes `2026-11-21T08:27:50.000000Z` when validating, but a bare
 * `2026-11-21T07:26:51` for an application credential's token when issuing it: a time
 * without a zone is UTC (keystoneauth's parse_isotime), microseconds are cut to milliseconds.
 */
export function parseIsoTime(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const match = ISO_TIME.exec(text);
  if (!match) return null;
  const millis = (match[2] ?? '').padEnd(3, '0').slice(0, 3);
  const time = Date.parse(`${match[1]}.${millis}${match[3] ?? 'Z'}`);
  return Number.isNaN(time) ? null : time;
}

const record = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

const idOf = (value: unknown): string | null => {
  const id = record(value)?.id;
  return typeof id === 'string' ? id : null;
};

/**
 * The `token` of `GET /v3/auth/tokens` (or of the `POST` that issued it); null when the
 * body is not a v3 token, which keystonemiddleware also treats as an invalid token.
 */
export function parseKeystoneToken(body: unknown): KeystoneToken | null {
  const token = record(record(body)?.token);
  if (!token) return null;
  const user = record(token.user);
  const userId = idOf(user);
  const expiresAt = parseIsoTime(token.expires_at);
  if (!user || !userId || expiresAt === null) return null;
  if (!Array.isArray(token.roles)) return null;
  const roles = token.roles.map((role) => record(role)?.name).filter((name): name is string => typeof name === 'string');
  const project = record(token.project);
  return {
    userId,
    userDomainId: idOf(user.domain),
    projectId: idOf(project),
    projectDomainId: project ? idOf(project.domain) : null,
    domainId: idOf(token.domain),
    roles,
    systemScope: record(token.system)?.all === true,
    issuedAt: parseIsoTime(token.issued_at) ?? expiresAt,
    expiresAt,
  };
}

/** The caller a user token names; with a service token, also the service that forwarded the request. */
export function identityOf(token: KeystoneToken, serviceToken?: KeystoneToken): Identity {
  return {
    userId: token.userId,
    projectId: token.projectId,
    roles: token.roles,
    systemScope: token.systemScope,
    domainId: token.domainId,
    userDomainId: token.userDomainId,
    projectDomainId: token.projectDomainId,
    ...(serviceToken ? { service: serviceIdentityOf(serviceToken) } : {}),
  };
}

function serviceIdentityOf(token: KeystoneToken): ServiceIdentity {
  return {
    userId: token.userId,
    userDomainId: token.userDomainId,
    projectId: token.projectId,
    projectDomainId: token.projectDomainId,
    roles: token.roles,
  };
}
