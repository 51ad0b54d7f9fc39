import { AllocationOrder, ConsumerAllocations } from './consumer.events.js';

/** One (provider, class) line of a consumer's set. */
export interface AllocationLine {
  readonly provider: string;
  readonly resourceClass: string;
  readonly used: number;
}

/** The order a claim lists its set in (JavaScript objects keep the request's key order). */
export function writtenOrder(allocations: ConsumerAllocations): AllocationOrder {
  return Object.entries(allocations).map(([provider, resources]) => [provider, Object.keys(resources)]);
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A stored set as lines in the order to show them: as written where the event recorded it, else
 * (older events) providers by uuid and classes by name, compared by code point so the read
 * model's migration (COLLATE "C") numbers old rows the same. Anything the order misses follows,
 * in that same fallback order, so no line is ever lost.
 */
export function orderedLines(allocations: ConsumerAllocations, order?: AllocationOrder): AllocationLine[] {
  const lines: AllocationLine[] = [];
  const listed = new Set<string>();
  const add = (provider: string, resourceClass: string) => {
    const used = allocations[provider]?.[resourceClass];
    const key = `${provider} ${resourceClass}`;
    if (used === undefined || listed.has(key)) return;
    listed.add(key);
    lines.push({ provider, resourceClass, used });
  };
  for (const [provider, classes] of order ?? []) for (const rc of classes) add(provider, rc);
  for (const provider of Object.keys(allocations).sort(byCodePoint)) {
    for (const rc of Object.keys(allocations[provider]).sort(byCodePoint)) add(provider, rc);
  }
  return lines;
}
