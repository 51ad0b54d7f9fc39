import type { Server } from 'node:http';
import { BODY_LIMIT_BYTES } from './oversized-body.js';

/**
 * Limits for slow or idle clients (README, "Hostile input and failing dependencies"). Time
 * limits cover receiving a request only, never the answer: the ledger feed's long polls and
 * event streams hold answers open for minutes.
 */
const CONNECTION_LIMITS = {
  /** The request line and headers must arrive within this (slowloris). */
  headersTimeoutMs: 10_000,
  /** The whole request, body included, must arrive within this. */
  requestTimeoutMs: 30_000,
  /** An idle keep-alive connection between requests is closed after this. */
  keepAliveTimeoutMs: 72_000,
  /** Node's parser refuses a request line and headers larger than this with a 431. */
  maxHeaderBytes: 16 * 1024,
  bodyLimitBytes: BODY_LIMIT_BYTES,
} as const;

/** The Fastify options carrying the limits. */
export const fastifyLimitOptions = {
  bodyLimit: CONNECTION_LIMITS.bodyLimitBytes,
  requestTimeout: CONNECTION_LIMITS.requestTimeoutMs,
  keepAliveTimeout: CONNECTION_LIMITS.keepAliveTimeoutMs,
  // Node looks for requests past their time limits this often (its default, 30 s, lets slow clients linger).
  http: { maxHeaderSize: CONNECTION_LIMITS.maxHeaderBytes, connectionsCheckingInterval: 1000 },
};

/** What Fastify has no option for. */
export function applyServerLimits(server: Server): void {
  server.headersTimeout = CONNECTION_LIMITS.headersTimeoutMs;
}
