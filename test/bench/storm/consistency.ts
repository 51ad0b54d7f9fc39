import type { Acknowledged, Resources } from '../claims-check.js';

/**
 * The storm's verdict besides over-commit (claims-check.ts's overCommitted): each project's
 * usages, as GET /usages reports them, equal the sum of the claims acknowledged to it, and
 * nothing else. Instances of mixed flavors, so sums, not counts times one claim.
 */

/** What each project must hold: the resources of its acknowledged claims, over every provider. */
export function claimedPerProject(acknowledged: readonly Acknowledged[]): Map<string, Record<string, number>> {
  const sums = new Map<string, Record<string, number>>();
  for (const claim of acknowledged) {
    const sum = sums.get(claim.projectId) ?? {};
    for (const { resources } of Object.values(claim.allocations)) {
      for (const [rc, n] of Object.entries(resources)) sum[rc] = (sum[rc] ?? 0) + n;
    }
    sums.set(claim.projectId, sum);
  }
  return sums;
}

/** Every project whose reported usages differ from its claims, class by class (a class used 0 counts as absent). */
export function projectMismatches(claimed: ReadonlyMap<string, Resources>, reported: ReadonlyMap<string, Resources>): string[] {
  const problems: string[] = [];
  for (const project of new Set([...claimed.keys(), ...reported.keys()])) {
    const want = claimed.get(project) ?? {}, got = reported.get(project) ?? {};
    for (const rc of new Set([...Object.keys(want), ...Object.keys(got)])) {
      if ((want[rc] ?? 0) !== (got[rc] ?? 0)) problems.push(`project ${project}: ${got[rc] ?? 0} ${rc} used, its claims hold ${want[rc] ?? 0}`);
    }
  }
  return problems;
}

/** The providers any claim took from: the only ones whose usages the storm changed. */
export function touchedProviders(acknowledged: readonly Acknowledged[]): string[] {
  return [...new Set(acknowledged.flatMap((claim) => Object.keys(claim.allocations)))];
}
