import type { Allocations } from '../claims-check.js';
import { JsonScan } from './json-scan.js';

/** Nova's `host_subset_size`: the pick is random among this many best-weighed hosts, so that schedulers racing each other spread out. */
export const HOST_SUBSET_SIZE = 5;

/**
 * The allocation requests as read: the i-th one's first provider (whose root is its host) and
 * where its allocations lie, bytes[spans[2i], spans[2i + 1]); only the one picked is parsed.
 */
interface Requests {
  readonly providers: string[];
  readonly spans: number[];
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
  const requests: Requests = { providers: [], spans: [] };
  const roots = new Map<string, string>();
  const freeRam = new Map<string, number>();
  scan.openObject();
  while (scan.nextEntry()) {
    if (scan.nameIs('allocation_requests')) readRequests(scan, requests);
    else if (scan.nameIs('provider_summaries')) readSummaries(scan, roots, freeRam);
    else scan.skip();
  }
  const firstByHost = new Map<string, number>();
  requests.providers.forEach((provider, i) => {
    const host = roots.get(provider) ?? provider;
    if (!firstByHost.has(host)) firstByHost.set(host, i);
  });
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
  const picked = firstByHost.get(best[Math.floor(random() * best.length)].host)!;
  return JSON.parse(answer.toString('utf8', requests.spans[2 * picked], requests.spans[2 * picked + 1])) as Allocations;
}

/** The allocation requests, the scan at their array: each one's first provider and where its allocations lie. */
function readRequests(scan: JsonScan, requests: Requests): void {
  scan.openArray();
  while (scan.nextItem()) {
    scan.openObject();
    while (scan.nextEntry()) {
      if (!scan.nameIs('allocations')) { scan.skip(); continue; }
      const from = scan.at;
      let provider: string | undefined;
      scan.openObject();
      while (scan.nextEntry()) {
        provider ??= scan.name();
        scan.skip();
      }
      requests.providers.push(provider!);
      requests.spans.push(from, scan.at);
    }
  }
}

/** The provider summaries, the scan at their object: each provider's root, and the free RAM of each root's tree. */
function readSummaries(scan: JsonScan, roots: Map<string, string>, freeRam: Map<string, number>): void {
  scan.openObject();
  while (scan.nextEntry()) {
    const { nameStart, nameEnd } = scan;
    const uuid = scan.name();
    let root = uuid;
    let free: number | undefined;
    scan.openObject();
    while (scan.nextEntry()) {
      // A root is most often itself: then its uuid is not decoded again.
      if (scan.nameIs('root_provider_uuid')) root = scan.stringIs(nameStart, nameEnd) ? uuid : scan.string();
      else if (scan.nameIs('resources')) free = memoryFree(scan);
      else scan.skip();
    }
    roots.set(uuid, root);
    if (free !== undefined) freeRam.set(root, (freeRam.get(root) ?? 0) + free);
  }
}

/** A summary's free MEMORY_MB (capacity less used), or undefined where it has none: the scan at its resources. */
function memoryFree(scan: JsonScan): number | undefined {
  let free: number | undefined;
  scan.openObject();
  while (scan.nextEntry()) {
    if (!scan.nameIs('MEMORY_MB')) { scan.skip(); continue; }
    let capacity = 0, used = 0;
    scan.openObject();
    while (scan.nextEntry()) {
      if (scan.nameIs('capacity')) capacity = scan.number();
      else if (scan.nameIs('used')) used = scan.number();
      else scan.skip();
    }
    free = capacity - used;
  }
  return free;
}
