import { BenchClient } from '../http.js';
import { wideQuery } from './cloud.js';

/** One question about the wide tree, asked while the storm ran: its answer, or why there was none, and when (ms since the storm began). */
export interface WideAsked {
  readonly label: string;
  readonly status: number | null;
  readonly from: number;
  readonly to: number;
  /** The answer's first bytes, or the client's error (no answer within its minute). */
  readonly said: string;
  readonly candidates: number | null;
}

/**
 * Issue 30's rule for a question that cannot be answered: a 4xx in upstream's shape naming
 * `max_allocation_candidates` or `limit`, never a 5xx; an answered question is a 200. Empty when
 * the answer keeps it.
 */
export function wideProblems(asked: WideAsked): string[] {
  if (asked.status === null) return [`${asked.label}: no answer (${asked.said})`];
  if (asked.status >= 500) return [`${asked.label}: ${asked.status}`];
  if (asked.status >= 400 && !/max_allocation_candidates|\blimit\b/.test(asked.said)) {
    return [`${asked.label}: ${asked.status} naming neither max_allocation_candidates nor limit: ${asked.said.slice(0, 200)}`];
  }
  return [];
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * After `delayMs` into the storm, the wide tree's question with `limit=1000`, then without a
 * limit, one after the other (one scheduler's worth of trouble at a time).
 */
export async function askWide(client: BenchClient, width: number, started: number, delayMs: number): Promise<WideAsked[]> {
  await pause(delayMs);
  const asked: WideAsked[] = [];
  for (const [label, limit] of [['limit=1000', 1000], ['no limit', undefined]] as const) {
    const from = performance.now() - started;
    const reply = await client.call('GET', wideQuery(width, limit)).catch((error: Error) => error);
    const to = performance.now() - started;
    if (reply instanceof Error) {
      asked.push({ label, status: null, from, to, said: reply.message.replace(/^GET \S+: /, '').slice(0, 300), candidates: null });
      continue;
    }
    // Counted, not parsed: the schedulers share this event loop, and parsing a megabyte of the
    // wide tree's answer held their requests for tens of milliseconds, which their latencies showed.
    const candidates = reply.status === 200 ? allocationRequestsIn(reply.body) : null;
    asked.push({ label, status: reply.status, from, to, said: reply.body.slice(0, 300), candidates });
  }
  return asked;
}

/** The allocation requests of an answer: each has one "allocations" key, and nothing else in the answer does. */
export function allocationRequestsIn(body: string): number {
  return body.match(/"allocations":/g)?.length ?? 0;
}
