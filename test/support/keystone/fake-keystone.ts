import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import recorded from './keystone-v3-recorded.json';
import { keystoneServiceEnv } from './service-env.js';

/**
 * Keystone 22 (Debian bookworm) replayed: every status, header and body below was recorded
 * from the real server started by start-keystone.sh (see keystone-v3-recorded.json). Only the
 * times move: each token is re-dated so that it was issued when this fake started (its
 * lifetime kept), and a token past its expires_at gets Keystone's recorded 404.
 */
export type RecordedToken = keyof typeof recorded.validations;

interface Exchange {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

export interface KeystoneCall {
  readonly method: string;
  readonly authToken?: string;
  readonly subjectToken?: string;
}

export interface FakeKeystoneOptions {
  readonly clock?: () => number;
  /** Lifetime of the service tokens this fake issues; the recording's own (1 h) by default. */
  readonly serviceTokenLifetimeMs?: number;
}

const SECOND = 1000;
const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, '.000000Z');
const recordedTime = (text: string) => Date.parse(text);

export class FakeKeystone {
  readonly calls: KeystoneCall[] = [];
  /** The password the fake expects; the recorded service user's by default. */
  password = recorded.passwordAuth.request.auth.identity.password.user.password;
  /** Answer no request at all (a hung Keystone). */
  hang = false;
  /** Cut every connection at once (a Keystone that went away). */
  unreachable = false;
  /** Validations answer 403, as for a service user without the service or admin role. */
  forbidden = false;
  private server!: Server;
  private readonly clock: () => number;
  private readonly started: number;
  private readonly serviceTokens = new Map<string, number>(); // token -> expiresAt
  private readonly revoked = new Set<string>();
  private issued = 0;

  private constructor(private readonly options: FakeKeystoneOptions) {
    this.clock = options.clock ?? Date.now;
    this.started = Math.floor(this.clock() / SECOND) * SECOND;
  }

  static async start(options: FakeKeystoneOptions = {}): Promise<FakeKeystone> {
    const fake = new FakeKeystone(options);
    fake.server = createServer((req, res) => fake.handle(req, res));
    await new Promise<void>((done) => fake.server.listen(0, '127.0.0.1', done));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The settings that make the service authenticate against this fake as the recorded service user. */
  serviceEnv(): Record<string, string> {
    return keystoneServiceEnv(this.url, { name: 'placement', password: this.password, project: 'service' });
  }

  /** The recorded X-Subject-Token of one of the users' tokens. */
  token(name: RecordedToken): string {
    return recorded.validations[name].subjectToken;
  }

  /** As `DELETE /v3/auth/tokens` does: from now on the token validates as 404. */
  revoke(token: string): void {
    this.revoked.add(token);
  }

  /** Every service token issued so far stops being accepted (Keystone's keys rotated past them). */
  revokeServiceTokens(): void {
    for (const token of this.serviceTokens.keys()) this.revoked.add(token);
  }

  count(method: string): number {
    return this.calls.filter((call) => call.method === method).length;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((done) => this.server.close(done));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (this.unreachable) {
      req.socket.destroy();
      return;
    }
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      if (this.hang) return;
      const authToken = req.headers['x-auth-token'] as string | undefined;
      const subjectToken = req.headers['x-subject-token'] as string | undefined;
      this.calls.push({ method: req.method!, authToken, subjectToken });
      const path = (req.url ?? '').split('?')[0];
      if (path !== '/v3/auth/tokens') return this.send(res, { status: 404, body: { error: { code: 404, message: 'Not Found', title: 'Not Found' } } });
      if (req.method === 'POST') return this.issue(res, text);
      if (req.method === 'GET') return this.validate(res, authToken, subjectToken);
      return this.send(res, { status: 405, body: null });
    });
  }

  private issue(res: ServerResponse, text: string): void {
    const asked = JSON.parse(text) as typeof recorded.passwordAuth.request;
    const expected = recorded.passwordAuth.request.auth;
    const user = asked.auth?.identity?.password?.user;
    const scope = asked.auth?.scope?.project;
    const matches = user?.name === expected.identity.password.user.name && user?.password === this.password
      && user?.domain?.name === expected.identity.password.user.domain.name
      && scope?.name === expected.scope.project.name && scope?.domain?.name === expected.scope.project.domain.name;
    if (!matches) return this.send(res, recorded.badPasswordAuth.response);
    const now = Math.floor(this.clock() / SECOND) * SECOND;
    const recordedToken = recorded.passwordAuth.response.body.token;
    const lifetime = this.options.serviceTokenLifetimeMs
      ?? recordedTime(recordedToken.expires_at) - recordedTime(recordedToken.issued_at);
    // Fernet tokens differ at each issue; so do ours, for the tests to tell them apart.
    const token = `${recorded.passwordAuth.response.subjectToken}${this.issued++ === 0 ? '' : `-${this.issued}`}`;
    this.serviceTokens.set(token, now + lifetime);
    const body = { token: { ...recordedToken, issued_at: isoSeconds(now), expires_at: isoSeconds(now + lifetime) } };
    this.send(res, { status: 201, body }, { 'X-Subject-Token': token });
  }

  private validate(res: ServerResponse, authToken?: string, subjectToken?: string): void {
    const now = this.clock();
    const serviceExpiry = authToken === undefined ? undefined : this.serviceTokens.get(authToken);
    const serviceValid = serviceExpiry !== undefined && serviceExpiry > now && !this.revoked.has(authToken!);
    if (!serviceValid) {
      const isUser = Object.values(recorded.validations).some((v) => v.subjectToken === authToken);
      return this.send(res, isUser ? recorded.notPermitted : recorded.badServiceToken);
    }
    if (this.forbidden) return this.send(res, recorded.notPermitted);
    const found = Object.values(recorded.validations).find((v) => v.subjectToken === subjectToken);
    if (!found) return this.send(res, recorded.bogus);
    const body = this.redate(found.body);
    if (this.revoked.has(subjectToken!) || recordedTime(body.token.expires_at) <= now) return this.send(res, recorded.expired);
    this.send(res, { status: found.status, body });
  }

  private redate<T extends { token: { issued_at: string; expires_at: string } }>(body: T): T {
    const lifetime = recordedTime(body.token.expires_at) - recordedTime(body.token.issued_at);
    return { ...body, token: { ...body.token, issued_at: isoSeconds(this.started), expires_at: isoSeconds(this.started + lifetime) } };
  }

  private send(res: ServerResponse, exchange: Exchange, extra: Record<string, string> = {}): void {
    const payload = exchange.body === null ? '' : JSON.stringify(exchange.body);
    res.writeHead(exchange.status, {
      ...(payload ? { 'Content-Type': 'application/json' } : {}),
      Vary: 'X-Auth-Token',
      ...(exchange.headers ?? {}),
      ...extra,
    });
    res.end(payload);
  }
}
