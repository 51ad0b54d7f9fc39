import { Acknowledged, overCommitted, readBackMismatches, Resources } from '../claims-check.js';
import { projectUsages, providerSnapshots, readConsumers } from '../claims-snapshot.js';
import { BenchClient, inParallel } from '../http.js';
import { claimedPerProject, projectMismatches, touchedProviders } from './consistency.js';

/** /usages before consumer types (1.38), which upstream 8.0.0 cannot answer on PostgreSQL. */
const USAGES_VERSION = '1.37';

/**
 * After a storm, what the server says against what it acknowledged: no provider the claims
 * touched beyond (total - reserved) * allocation_ratio in any class, every claim read back as
 * sent, and each project's usages (GET /usages) equal to its claims. Empty when sound.
 */
export async function checkStorm(client: BenchClient, acknowledged: readonly Acknowledged[]): Promise<string[]> {
  const claimed = claimedPerProject(acknowledged);
  const reported = new Map<string, Resources>();
  const projects = [...claimed.keys()];
  await inParallel(projects.length, 10, async (i) => {
    reported.set(projects[i], (await projectUsages(client, projects[i], USAGES_VERSION)).usages);
  });
  return [
    ...overCommitted(await providerSnapshots(client, touchedProviders(acknowledged))),
    ...readBackMismatches(acknowledged, await readConsumers(client, acknowledged.map((a) => a.consumer))),
    ...projectMismatches(claimed, reported),
  ];
}
