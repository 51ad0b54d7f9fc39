import { BlockList, isIP } from 'node:net';

export type AuthStrategyName = 'noauth2' | 'keystone';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Whether a server bound to `host` can be reached from this machine only. `localhost` counts
 * (Node resolves it to 127.0.0.1 or ::1); any other name does not, even one /etc/hosts maps to
 * 127.0.1.1: the configuration is read before any lookup, and a wrong "yes" here would put an
 * unauthenticated API on the network. 0.0.0.0 and :: are every interface, so not loopback.
 */
export function isLoopbackHost(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  const family = isIP(host);
  // BlockList also matches the IPv4-mapped form (::ffff:127.0.0.1) against the IPv4 subnet.
  return family !== 0 && LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Upstream's default is keystone; ours stays noauth2 where only this machine can reach the
 * server, so that `npm start` on a fresh machine keeps working. Anywhere else the operator
 * chooses, and this says how.
 */
export function missingStrategyMessage(host: string): string {
  return `PLACEMENT_AUTH_STRATEGY is not set and HOST (or --host) "${host}" is not a loopback address: `
    + 'noauth2 is the default only on 127.0.0.0/8, ::1 and localhost. Set PLACEMENT_AUTH_STRATEGY=keystone with '
    + 'PLACEMENT_KEYSTONE_AUTH_URL, PLACEMENT_KEYSTONE_USERNAME, PLACEMENT_KEYSTONE_PASSWORD and PLACEMENT_KEYSTONE_PROJECT_NAME '
    + '(in placement.conf: [api] auth_strategy = keystone and [keystone_authtoken]), '
    + 'or PLACEMENT_AUTH_STRATEGY=noauth2 for development and tests only';
}

/** Logged at every start under noauth2, so that no one runs it by accident and unawares. */
export const NOAUTH2_WARNING = 'PLACEMENT_AUTH_STRATEGY=noauth2: requests are not authenticated; anyone who can reach this '
  + 'server can claim any identity, admin included, with an X-Auth-Token header. For development and tests only; '
  + 'use PLACEMENT_AUTH_STRATEGY=keystone in production';
