import type { Allocations } from '../claims-check.js';

/** The parts of a GET /allocation_candidates answer (1.29+) a scheduler weighs. */
export interface CandidatesAnswer {
  readonly allocation_requests: readonly { readonly allocations: Allocations }[];
  readonly provider_summaries: Readonly<Record<string, {
    readonly resources: Readonly<Record<string, { readonly capacity: number; readonly used: number }>>;
    readonly root_provider_uuid: string;
  }>>;
}

/** Nova's `host_subset_size`: the pick is random among this many best-weighed hosts, so that schedulers racing each other spread out. */
export const HOST_SUBSET_SIZE = 5;

/**
 * What Nova's scheduler does with an answer: group the allocation requests by host (the root of
 * their providers), weigh each host by its free RAM (the RAM weigher, summed over its tree as the
 * summaries give it), take one of the `subset` best at random and claim that host's first
 * allocation request. Null when there is no candidate (Nova's NoValidHost).
 */
export function pickAllocation(answer: CandidatesAnswer, random: () => number, subset = HOST_SUBSET_SIZE): Allocations | null {
  const firstByHost = new Map<string, Allocations>();
  for (const request of answer.allocation_requests) {
    const anyProvider = Object.keys(request.allocations)[0];
    const host = answer.provider_summaries[anyProvider]?.root_provider_uuid ?? anyProvider;
    if (!firstByHost.has(host)) firstByHost.set(host, request.allocations);
  }
  if (firstByHost.size === 0) return null;
  const freeRam = new Map<string, number>();
  for (const summary of Object.values(answer.provider_summaries)) {
    const memory = summary.resources.MEMORY_MB;
    if (!memory) continue;
    freeRam.set(summary.root_provider_uuid, (freeRam.get(summary.root_provider_uuid) ?? 0) + memory.capacity - memory.used);
  }
  // A stable sort: hosts of equal weight keep the answer's order, as Nova's weighing does.
  const hosts = [...firstByHost.keys()].sort((a, b) => (freeRam.get(b) ?? 0) - (freeRam.get(a) ?? 0));
  const best = hosts.slice(0, Math.min(subset, hosts.length));
  return firstByHost.get(best[Math.floor(random() * best.length)])!;
}
