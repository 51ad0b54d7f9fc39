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

/**
 * Random bytes drawn a page at a time: every append takes a token, and each call into the
 * system's generator costs microseconds however few bytes it returns.
 */
const TOKENS_PER_DRAW = 512;
let drawn = Buffer.alloc(0);
let next = 0;

/** A transaction's fence token (es_append, es_settle): random, positive, within 62 bits (two int4 advisory keys). */
export function fenceToken(): bigint {
  if (next === drawn.length) {
    drawn = randomBytes(8 * TOKENS_PER_DRAW);
    next = 0;
  }
  const token = drawn.readBigUInt64BE(next) >> 2n;
  next += 8;
  return token;
}
