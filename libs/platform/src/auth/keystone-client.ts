import { redactUrl } from '#config-file/redact-url.js';
import { IdentityServiceUnavailable } from './identity.js';
import { KeystoneSettings, passwordAuthBody, tokensEndpoint } from './keystone-settings.js';
import { KeystoneToken, parseKeystoneToken } from './keystone-token.js';
import { ServiceToken } from './service-token.js';

export type Validation =
  | { readonly kind: 'valid'; readonly token: KeystoneToken }
  /** 404: unknown, revoked or expired; or a body that is not a token. */
  | { readonly kind: 'invalid' }
  /** 401: Keystone no longer accepts our own token. */
  | { readonly kind: 'service-token-refused' };

/** The two calls keystonemiddleware makes to Keystone's v3 token API. */
export class KeystoneClient {
  private readonly endpoint: string;

  constructor(private readonly settings: KeystoneSettings, private readonly timeoutMs = 10_000) {
    this.endpoint = tokensEndpoint(settings.authUrl);
  }

  /** `POST /v3/auth/tokens` with the service user's password, scoped to its project. */
  async issueServiceToken(): Promise<ServiceToken> {
    const response = await this.send('POST', this.endpoint, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(passwordAuthBody(this.settings)),
    });
    if (response.status === 401) {
      await discard(response);
      throw new IdentityServiceUnavailable(
        `Keystone refused the credentials of the service user "${this.settings.username}" ` +
        '(PLACEMENT_KEYSTONE_USERNAME / PASSWORD / PROJECT_NAME / *_DOMAIN_NAME)');
    }
    if (response.status !== 201) throw await this.unexpected(response, 'authenticating the service user');
    const token = response.headers.get('x-subject-token');
    const parsed = parseKeystoneToken(await this.json(response));
    if (!token || !parsed) throw new IdentityServiceUnavailable('Keystone issued the service user a token without X-Subject-Token or a v3 token body');
    return { token, issuedAt: parsed.issuedAt, expiresAt: parsed.expiresAt };
  }

  /** `GET /v3/auth/tokens`: the user's token as X-Subject-Token, ours as X-Auth-Token. */
  async validate(subjectToken: string, serviceToken: string): Promise<Validation> {
    const response = await this.send('GET', `${this.endpoint}?nocatalog`, {
      headers: { 'x-auth-token': serviceToken, 'x-subject-token': subjectToken },
    });
    if (response.status === 404 || response.status === 401) {
      await discard(response);
      return { kind: response.status === 404 ? 'invalid' : 'service-token-refused' };
    }
    if (response.status !== 200) {
      const why = response.status === 403 ? ' (the service user needs the service or admin role to validate tokens)' : '';
      throw await this.unexpected(response, `validating a token${why}`);
    }
    const token = parseKeystoneToken(await this.json(response));
    return token ? { kind: 'valid', token } : { kind: 'invalid' };
  }

  private async send(method: string, url: string, init: { headers: Record<string, string>; body?: string }): Promise<Response> {
    try {
      return await fetch(url, {
        method,
        headers: { accept: 'application/json', ...init.headers },
        body: init.body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      if ((error as { name?: unknown } | null)?.name === 'TimeoutError') {
        throw new IdentityServiceUnavailable(`Keystone at ${redactUrl(this.settings.authUrl)} did not answer within ${this.timeoutMs} ms`);
      }
      const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      throw new IdentityServiceUnavailable(`Keystone at ${redactUrl(this.settings.authUrl)} is unreachable: ${cause}`);
    }
  }

  private async json(response: Response): Promise<unknown> {
    try {
      return await response.json();
    } catch {
      return null;
    }
  }

  private async unexpected(response: Response, doing: string): Promise<IdentityServiceUnavailable> {
    await discard(response);
    return new IdentityServiceUnavailable(`Keystone answered ${response.status} when ${doing}`);
  }
}

/** An unread body holds its connection until garbage collection. */
const discard = async (response: Response) => { await response.body?.cancel().catch(() => undefined); };
