import type { LogPosition } from '#event-store/index.js';

/**
 * Clients hold positions as opaque strings: the PostgreSQL adapter's {commit, prepare} pair
 * today, something else under another adapter tomorrow, without breaking a stored token.
 */
const POSITION = /^(\d{1,20})\.(\d{1,19})$/;
const MARKER = /^r(\d{1,15})$/;
const XID8_MAX = (1n << 64n) - 1n;
const BIGINT_MAX = (1n << 63n) - 1n;

const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** The decoded text, or undefined unless `token` is exactly what encode() makes (no padding, no junk). */
function decode(token: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(token)) return undefined;
  const text = Buffer.from(token, 'base64url').toString('utf8');
  return encode(text) === token ? text : undefined;
}

export const positionToken = (position: LogPosition): string => encode(`${position.commit}.${position.prepare}`);

export function parsePositionToken(token: string): LogPosition | undefined {
  const match = POSITION.exec(decode(token) ?? '');
  if (!match) return undefined;
  const commit = BigInt(match[1]);
  const prepare = BigInt(match[2]);
  if (commit > XID8_MAX || prepare > BIGINT_MAX) return undefined;
  return { commit, prepare };
}

/** A page marker inside one stream: the revision of the last event the page held. */
export const revisionMarker = (revision: number): string => encode(`r${revision}`);

export function parseRevisionMarker(marker: string): number | undefined {
  const match = MARKER.exec(decode(marker) ?? '');
  return match ? Number(match[1]) : undefined;
}
