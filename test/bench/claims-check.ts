/**
 * The claims benchmark's verdict over plain data (what the API answered once the rounds were
 * over): no provider over its capacity, usages that add up to the claims acknowledged, every
 * acknowledged consumer readable as written, every refused one without a trace.
 */
export type Resources = Readonly<Record<string, number>>;
export type Allocations = Readonly<Record<string, { readonly resources: Resources }>>;

export interface Inventory {
  readonly total: number;
  readonly reserved: number;
  readonly allocation_ratio: number;
}

export interface ProviderSnapshot {
  readonly uuid: string;
  readonly inventories: Readonly<Record<string, Inventory>>;
  readonly usages: Resources;
}

/** Upstream's rule (objects/allocation.py): used + requested <= (total - reserved) * allocation_ratio. */
export const capacityOf = (inventory: Inventory): number => (inventory.total - inventory.reserved) * inventory.allocation_ratio;

/** Every class of every provider used beyond its capacity, or used without an inventory. */
export function overCommitted(providers: readonly ProviderSnapshot[]): string[] {
  const problems: string[] = [];
  for (const provider of providers) {
    for (const [rc, used] of Object.entries(provider.usages)) {
      if (used === 0) continue;
      const inventory = provider.inventories[rc];
      if (!inventory) problems.push(`${provider.uuid}: ${used} ${rc} used without an inventory`);
      else if (used > capacityOf(inventory)) problems.push(`${provider.uuid}: ${used} ${rc} used, capacity ${capacityOf(inventory)}`);
    }
  }
  return problems;
}

/** Usages (of a round's providers, or of its project) that hold exactly `claims` times one claim's amount, and nothing else. */
export function usageMismatches(usages: readonly Resources[], perClaim: Resources, claims: number): string[] {
  const sums: Record<string, number> = {};
  for (const held of usages) {
    for (const [rc, used] of Object.entries(held)) sums[rc] = (sums[rc] ?? 0) + used;
  }
  const problems: string[] = [];
  for (const rc of new Set([...Object.keys(sums), ...Object.keys(perClaim)])) {
    const expected = claims * (perClaim[rc] ?? 0);
    if ((sums[rc] ?? 0) !== expected) problems.push(`${rc}: ${sums[rc] ?? 0} used in all, ${claims} claims of ${perClaim[rc] ?? 0} make ${expected}`);
  }
  return problems;
}

/** How many identical claims the providers can take in all, each provider filled to its tightest class. */
export function claimsThatFit(providers: readonly Pick<ProviderSnapshot, 'inventories'>[], perClaim: Resources): number {
  let fit = 0;
  for (const { inventories } of providers) {
    const counts = Object.entries(perClaim).map(([rc, amount]) => (inventories[rc] ? Math.floor(capacityOf(inventories[rc]) / amount) : 0));
    fit += Math.min(...counts);
  }
  return fit;
}

export interface Acknowledged {
  readonly consumer: string;
  readonly projectId: string;
  readonly allocations: Allocations;
}

/** A GET /allocations/{consumer} answer, reduced to what the comparison needs. */
export interface ReadBack {
  readonly allocations: Allocations;
  readonly project_id?: string;
}

const sameResources = (a: Resources, b: Resources) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([rc, n]) => b[rc] === n);

/** Acknowledged consumers whose allocations or project read back differently from what was sent. */
export function readBackMismatches(acknowledged: readonly Acknowledged[], read: ReadonlyMap<string, ReadBack>): string[] {
  const problems: string[] = [];
  for (const claim of acknowledged) {
    const got = read.get(claim.consumer);
    if (!got) { problems.push(`${claim.consumer}: not read back`); continue; }
    const sent = Object.keys(claim.allocations), held = Object.keys(got.allocations);
    const same = sent.length === held.length
      && sent.every((rp) => got.allocations[rp] && sameResources(claim.allocations[rp].resources, got.allocations[rp].resources));
    if (!same) problems.push(`${claim.consumer}: holds ${JSON.stringify(got.allocations)}, was given ${JSON.stringify(claim.allocations)}`);
    else if (got.project_id !== claim.projectId) problems.push(`${claim.consumer}: project ${got.project_id}, was ${claim.projectId}`);
  }
  return problems;
}

/** How many acknowledged claims each project made: its usages must be that many claims' worth. */
export function claimsPerProject(acknowledged: readonly Acknowledged[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const claim of acknowledged) counts.set(claim.projectId, (counts.get(claim.projectId) ?? 0) + 1);
  return counts;
}

/** Refused (or deleted) consumers that hold anything: a refused claim must change nothing, a deleted one leave nothing. */
export function leftovers(consumers: readonly string[], read: ReadonlyMap<string, ReadBack>, why: 'refused' | 'deleted' = 'refused'): string[] {
  return consumers.filter((consumer) => {
    const got = read.get(consumer);
    return !got || Object.keys(got.allocations).length > 0;
  }).map((consumer) => `${consumer}: ${why}, yet ${read.has(consumer) ? 'holds allocations' : 'not read back'}`);
}

/** The value of an unlabelled counter in Prometheus text; 0 when absent (nothing counted yet). */
export function counterValue(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
}

/** One claim's amounts, from the candidates query that found it (`resources=VCPU:1,DISK_GB:10`). */
export function resourcesOf(query: string): Resources {
  const resources = new URLSearchParams(query.slice(query.indexOf('?') + 1)).get('resources') ?? '';
  return Object.fromEntries(resources.split(',').filter(Boolean).map((item) => {
    const [rc, amount] = item.split(':');
    return [rc, Number(amount)];
  }));
}
