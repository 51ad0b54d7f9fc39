import { randomUUID } from 'node:crypto';

/** One claim a client sent, with what it heard back. */
export interface ClaimRecord {
  readonly consumer: string;
  readonly provider: string;
  readonly vcpu: number;
  readonly sentAt: number;
  /** How long the answer took. */
  readonly ms: number;
  readonly status: number | 'no answer';
  readonly detail?: string;
  /** A 5xx's Retry-After header. */
  readonly retryAfter?: string | null;
}

/** Clients claiming in loops, each remembering every answer, until stopped. */
export interface Claimers {
  readonly records: ClaimRecord[];
  stop(): Promise<void>;
}

const HEADERS = { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39', 'content-type': 'application/json' };

/**
 * `clients` loops, each PUTting a new consumer's claim of 1–2 VCPU on one of `providers` (the
 * first one more often: it is the small one, where refusals for capacity happen). A 503 is
 * retried after a pause shorter than its Retry-After, to time the recovery finely.
 */
export function startClaimers(url: string, providers: readonly string[], clients: number): Claimers {
  const records: ClaimRecord[] = [];
  let stopped = false;
  const loop = async (client: number) => {
    for (let i = 0; !stopped; i++) {
      const provider = i % 3 === 0 ? providers[0] : providers[1 + ((i + client) % (providers.length - 1))];
      const consumer = randomUUID();
      const vcpu = 1 + (i % 2);
      const sentAt = Date.now();
      const body = JSON.stringify({
        allocations: { [provider]: { resources: { VCPU: vcpu } } },
        project_id: `failover-${client}`, user_id: 'failover', consumer_generation: null, consumer_type: 'INSTANCE',
      });
      try {
        const reply = await fetch(`${url}/allocations/${consumer}`, { method: 'PUT', headers: HEADERS, body, signal: AbortSignal.timeout(30_000) });
        const text = await reply.text();
        records.push({ consumer, provider, vcpu, sentAt, ms: Date.now() - sentAt, status: reply.status, ...(reply.status >= 500 ? { detail: text, retryAfter: reply.headers.get('retry-after') } : {}) });
        if (reply.status === 503) await new Promise((resolve) => setTimeout(resolve, 200));
      } catch (error) {
        records.push({ consumer, provider, vcpu, sentAt, ms: Date.now() - sentAt, status: 'no answer', detail: (error as Error).message });
      }
    }
  };
  const loops = Array.from({ length: clients }, (_, client) => loop(client));
  return {
    records,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}
