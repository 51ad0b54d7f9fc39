import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keystoneServiceEnv } from './service-env.js';

export interface KeystoneUser {
  readonly name: string;
  readonly password: string;
  readonly id: string;
  readonly project: string;
  readonly project_id: string;
}

type UserName = 'admin' | 'placement' | 'reader' | 'member' | 'member_b';

export type KeystoneLaunch = { readonly ok: true; readonly keystone: RealKeystone } | { readonly ok: false; readonly reason: string };

const SCRIPTS = __dirname;

/**
 * Starts a real Keystone with start-keystone.sh, synchronously, so that a test file can
 * choose `describe` or `describe.skip` while jest loads it. PLACEMENT_E2E_KEYSTONE=off skips.
 */
export function launchKeystone(): KeystoneLaunch {
  if (process.env.PLACEMENT_E2E_KEYSTONE === 'off') return { ok: false, reason: 'PLACEMENT_E2E_KEYSTONE=off' };
  const work = mkdtempSync(join(tmpdir(), 'placement-keystone-'));
  // Installing the packages can take minutes on a machine that has none of them.
  const run = spawnSync(join(SCRIPTS, 'start-keystone.sh'), [work], { encoding: 'utf8', timeout: 15 * 60_000 });
  if (run.status !== 0) {
    const why = (run.stderr || run.error?.message || `exit ${run.status ?? run.signal}`).trim().split('\n').pop();
    // Whatever got started (uwsgi, the database) goes with the work dir.
    spawnSync(join(SCRIPTS, 'stop-keystone.sh'), [work], { stdio: 'ignore' });
    return { ok: false, reason: why ?? 'start-keystone.sh failed' };
  }
  const described = JSON.parse(readFileSync(join(work, 'keystone.json'), 'utf8')) as { url: string; users: Record<UserName, KeystoneUser> };
  return { ok: true, keystone: new RealKeystone(work, described.url, described.users) };
}

export class RealKeystone {
  private stopped = false;

  constructor(private readonly work: string, readonly url: string, readonly users: Record<UserName, KeystoneUser>) {
    // A killed jest run must not leave uwsgi behind.
    process.once('exit', () => this.stop());
  }

  /** The settings that make the service authenticate against this Keystone as its placement user. */
  serviceEnv(): Record<string, string> {
    return keystoneServiceEnv(this.url, this.users.placement);
  }

  /** A project-scoped token (the user's own project) or, with `system`, a system-scoped one. */
  async token(user: UserName, scope: 'project' | 'system' = 'project'): Promise<{ token: string; expiresAt: string }> {
    const who = this.users[user];
    const body = {
      auth: {
        identity: { methods: ['password'], password: { user: { name: who.name, domain: { id: 'default' }, password: who.password } } },
        scope: scope === 'system' ? { system: { all: true } } : { project: { id: who.project_id } },
      },
    };
    return this.issue(body);
  }

  /** A token that dies in `seconds`: Keystone caps a token at its application credential's expiry. */
  async shortLivedToken(user: UserName, seconds: number): Promise<{ token: string; expiresAt: string }> {
    const { token } = await this.token(user);
    const expires = new Date(Date.now() + seconds * 1000).toISOString().slice(0, 19);
    const created = await this.call('POST', `/v3/users/${this.users[user].id}/application_credentials`, token, {
      application_credential: { name: `short-${Date.now()}`, expires_at: expires },
    });
    const { application_credential: { id, secret } } = (await created.json()) as { application_credential: { id: string; secret: string } };
    return this.issue({ auth: { identity: { methods: ['application_credential'], application_credential: { id, secret } } } });
  }

  /** `DELETE /v3/auth/tokens`: the token is revoked at once. */
  async revoke(token: string): Promise<void> {
    const reply = await fetch(`${this.url}/v3/auth/tokens`, { method: 'DELETE', headers: { 'x-auth-token': token, 'x-subject-token': token } });
    if (reply.status !== 204) throw new Error(`revoking a token: Keystone answered ${reply.status}`);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    spawnSync(join(SCRIPTS, 'stop-keystone.sh'), [this.work], { stdio: 'ignore' });
  }

  private async issue(body: unknown): Promise<{ token: string; expiresAt: string }> {
    const reply = await this.call('POST', '/v3/auth/tokens', undefined, body);
    const data = (await reply.json()) as { token: { expires_at: string } };
    return { token: reply.headers.get('x-subject-token')!, expiresAt: data.token.expires_at };
  }

  private async call(method: string, path: string, token: string | undefined, body: unknown): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers['x-auth-token'] = token;
    const reply = await fetch(`${this.url}${path}`, { method, headers, body: JSON.stringify(body) });
    if (reply.status >= 300) throw new Error(`${method} ${path}: Keystone answered ${reply.status} ${await reply.text()}`);
    return reply;
  }
}
