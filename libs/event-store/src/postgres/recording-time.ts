import { randomBytes } from 'node:crypto';

let last = 0n;

/**
 * The time an append records its events at, in microseconds since the epoch: this server's clock,
 * as upstream Placement stamps its rows, chosen before the transaction so that the projections'
 * statements can carry it and go out with the append in one message (log-appends.ts). In one
 * process it never repeats nor goes back, so two appends are told apart by time as they were by
 * the transaction's own start.
 */
export function recordingTime(): bigint {
  const now = BigInt(Date.now()) * 1000n;
  last = now > last ? now : last + 1n;
  return last;
}

/** A transaction's fence token (es_append, es_settle): random, positive, within 62 bits (two int4 advisory keys). */
export function fenceToken(): bigint {
  return randomBytes(8).readBigUInt64BE() >> 2n;
}
