import { Acknowledged, leftovers, overCommitted, readBackMismatches, Resources } from '../claims-check.js';
import { projectUsages, providerSnapshots, readConsumers } from '../claims-snapshot.js';
import { BenchClient, inParallel } from '../http.js';
import { claimedPerProject, projectMismatches, touchedProviders } from './consistency.js';

/** /usages before consumer types (1.38), which upstream 8.0.0 cannot answer on PostgreSQL. */
const USAGES_VERSION = '1.37';

/**
 * After a storm, what the server says against what it acknowledged: no provider the claims
 * touched beyond (total - reserved) * allocation_ratio in any class, every claim read back as
 * sent, every `released` claim (made, then deleted) holding nothing, and each project's usages
 * (GET /usages) equal to the claims it still holds. Empty when sound.
 */
export async function checkStorm(client: BenchClient, acknowledged: readonly Acknowledged[], released: readonly Acknowledged[] = []): Promise<string[]> {
  const claimed = claimedPerProject(acknowledged);
  const reported = new Map<string, Resources>();
  const projects = [...new Set([...claimed.keys(), ...released.map((claim) => claim.projectId)])];
  await inParallel(projects.length, 10, async (i) => {
    reported.set(projects[i], (await projectUsages(client, projects[i], USAGES_VERSION)).usages);
  });
  return [
    ...overCommitted(await providerSnapshots(client, touchedProviders([...acknowledged, ...released]))),
    ...readBackMismatches(acknowledged, await readConsumers(client, acknowledged.map((a) => a.consumer))),
    ...leftovers(released.map((claim) => claim.consumer), await readConsumers(client, released.map((claim) => claim.consumer)), 'deleted'),
    ...projectMismatches(claimed, reported),
  ];
}
