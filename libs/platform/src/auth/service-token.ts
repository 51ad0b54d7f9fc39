/** The service's own token, with the times Keystone gave it (milliseconds since the epoch). */
export interface ServiceToken {
  readonly token: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

/** keystoneauth's MIN_TOKEN_LIFE_SECONDS: a token this close to its end is renewed first. */
export const STALE_MS = 120_000;

/**
 * Renew at two minutes before expiry as keystoneauth does, or at half-life for a token that
 * lives less than four minutes, so that a short token lifetime does not mean one password
 * authentication per request.
 */
export function refreshDue(token: ServiceToken, now: number): boolean {
  const margin = Math.min(STALE_MS, (token.expiresAt - token.issuedAt) / 2);
  return now >= token.expiresAt - margin;
}

/**
 * Hands out the current service token and renews it before it expires; callers that arrive
 * while a renewal is under way share that one request to Keystone.
 */
export class ServiceTokenSource {
  private current: ServiceToken | undefined;
  private pending: Promise<ServiceToken> | undefined;

  constructor(private readonly issue: () => Promise<ServiceToken>, private readonly clock: () => number) {}

  async get(): Promise<ServiceToken> {
    if (this.current && !refreshDue(this.current, this.clock())) return this.current;
    this.pending ??= this.issue().then(
      (token) => { this.current = token; this.pending = undefined; return token; },
      (error: unknown) => { this.pending = undefined; throw error; },
    );
    return this.pending;
  }

  /** Keystone refused `token` (revoked, keys rotated away): the next get() authenticates anew. */
  invalidate(token: ServiceToken): void {
    if (this.current === token) this.current = undefined;
  }
}
