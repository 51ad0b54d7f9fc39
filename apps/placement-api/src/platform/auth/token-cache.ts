import { createHash } from 'node:crypto';
import { KeystoneToken } from './keystone-token.js';

/**
 * Validated tokens, each kept until its own expires_at, at most `capacity` of them (the
 * least recently used goes first). Keys are hashes, so a heap dump holds no usable token.
 * A capacity of 0 keeps nothing: every request asks Keystone.
 */
export class TokenCache {
  private readonly entries = new Map<string, KeystoneToken>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(token: string, now: number): KeystoneToken | undefined {
    const key = keyOf(token);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= now) return undefined;
    this.entries.set(key, entry); // most recently used last
    return entry;
  }

  set(token: string, value: KeystoneToken): void {
    if (this.capacity === 0) return;
    const key = keyOf(token);
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }
}

const keyOf = (token: string) => createHash('sha256').update(token).digest('base64url');
