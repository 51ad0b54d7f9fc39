import type { Allocations } from '../claims-check.js';
import { JsonScan } from './json-scan.js';

/** Nova's `host_subset_size`: the pick is random among this many best-weighed hosts, so that schedulers racing each other spread out. */
export const HOST_SUBSET_SIZE = 5;

interface Request {
  /** Its first provider, whose root is its host. */
  readonly provider: string;
  readonly allocations: () => Allocations;
}

/**
 * What Nova's scheduler does with a GET /allocation_candidates answer (1.29+): group the
 * allocation requests by host (the root of their providers), weigh each host by its free RAM
 * (the RAM weigher, summed over its tree as the summaries give it), take one of the `subset`
 * best at random and claim that host's first allocation request. Null when there is no
 * candidate (Nova's NoValidHost).
 *
 * The answer's bytes are read where they lie (storm/json-scan.ts) and only the allocations
 * claimed are parsed: the storm's schedulers share the servers' cores, and parsing every answer
 * whole cost them more CPU than the servers spent answering it.
 */
export function pickAllocation(answer: Buffer, random: () => number, subset = HOST_SUBSET_SIZE): Allocations | null {
  const scan = new JsonScan(answer);
  const requests: Request[] = [];
  const roots = new Map<string, string>();
  const freeRam = new Map<string, number>();
  scan.entries((key) => {
    if (key.is('allocation_requests')) {
      scan.items(() => scan.entries((field) => {
        if (!field.is('allocations')) return;
        let provider: string | undefined;
        const from = scan.at;
        scan.entries((uuid) => { provider ??= uuid.text(); });
        const to = scan.at;
        requests.push({ provider: provider!, allocations: () => JSON.parse(answer.toString('utf8', from, to)) as Allocations });
      }));
    } else if (key.is('provider_summaries')) {
      scan.entries((provider) => {
        const uuid = provider.text();
        let root = uuid;
        let free: number | undefined;
        scan.entries((field) => {
          // A root is most often itself: then its uuid is not decoded again.
          if (field.is('root_provider_uuid')) root = scan.stringIs(provider) ? uuid : scan.string();
          else if (field.is('resources')) free = memoryFree(scan);
        });
        roots.set(uuid, root);
        if (free !== undefined) freeRam.set(root, (freeRam.get(root) ?? 0) + free);
      });
    }
  });
  const firstByHost = new Map<string, Request>();
  for (const request of requests) {
    const host = roots.get(request.provider) ?? request.provider;
    if (!firstByHost.has(host)) firstByHost.set(host, request);
  }
  if (firstByHost.size === 0) return null;
  // The `subset` heaviest, as a stable sort would rank them: hosts of equal weight keep the
  // answer's order, as Nova's weighing does. Kept in a short list instead of sorting every host.
  const best: { host: string; weight: number }[] = [];
  for (const host of firstByHost.keys()) {
    const weight = freeRam.get(host) ?? 0;
    if (best.length === subset && weight <= best[subset - 1].weight) continue;
    let at = best.length;
    while (at > 0 && best[at - 1].weight < weight) at--;
    best.splice(at, 0, { host, weight });
    if (best.length > subset) best.pop();
  }
  return firstByHost.get(best[Math.floor(random() * best.length)].host)!.allocations();
}

/** A summary's free MEMORY_MB (capacity less used), or undefined where it has none: the scan at its resources. */
function memoryFree(scan: JsonScan): number | undefined {
  let free: number | undefined;
  scan.entries((resourceClass) => {
    if (!resourceClass.is('MEMORY_MB')) return;
    let capacity = 0, used = 0;
    scan.entries((figure) => {
      if (figure.is('capacity')) capacity = scan.number();
      else if (figure.is('used')) used = scan.number();
    });
    free = capacity - used;
  });
  return free;
}
