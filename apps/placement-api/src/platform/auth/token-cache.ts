import { createHash } from 'node:crypto';
import { RecentlyUsed } from '#placement/shared/recently-used.js';

/**
 * What Keystone said about tokens, each answer kept for `ttlMs` at most (and never past the
 * `until` its writer gives, a token's own expires_at), at most `capacity` of them, the least
 * recently used going first. The time-to-live is what bounds a revocation: a token revoked in
 * Keystone keeps working here until its entry is that old (keystonemiddleware's
 * token_cache_time, 300 s by default). Keys are hashes, so a heap dump holds no usable token.
 * A capacity or a time-to-live of 0 keeps nothing: every request asks Keystone.
 */
export class TokenCache<V> {
  private readonly entries: RecentlyUsed<string, { readonly value: V; readonly until: number }>;

  constructor(private readonly capacity: number, private readonly ttlMs: number) {
    this.entries = new RecentlyUsed(capacity);
  }

  get size(): number {
    return this.entries.size;
  }

  get(token: string, now: number): V | undefined {
    if (this.entries.size === 0) return undefined;
    const key = keyOf(token);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(token: string, value: V, now: number, until = Infinity): void {
    if (this.capacity === 0 || this.ttlMs === 0) return;
    this.entries.set(keyOf(token), { value, until: Math.min(until, now + this.ttlMs) });
  }
}

const keyOf = (token: string) => createHash('sha256').update(token).digest('base64url');
