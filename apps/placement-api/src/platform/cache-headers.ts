import type { FastifyReply } from 'fastify';
import { Version } from './microversion.js';

/** From 1.15 every GET (and write that returns a body) says when its data last changed. */
export function setLastModified(reply: FastifyReply, version: Version, modified: Date | null | undefined): void {
  if (!version.matches('1.15')) return;
  reply.header('last-modified', (modified ?? new Date()).toUTCString());
  reply.header('cache-control', 'no-cache');
}

/** The newest of several timestamps (updated_at, else created_at), as util.pick_last_modified. */
export function newest(dates: Iterable<Date | null | undefined>): Date | null {
  let best: Date | null = null;
  for (const d of dates) if (d && (!best || d > best)) best = d;
  return best;
}
