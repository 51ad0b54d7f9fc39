import { BenchClient, inParallel } from '../http.js';
import type { ProviderPlan, TreePlan } from './cloud.js';

const LOADERS = 10;

/** One provider as a compute's agent makes it: create, then inventories, aggregates and traits, each at the generation the last gave. */
async function loadProvider(client: BenchClient, plan: ProviderPlan): Promise<number> {
  await client.expect('POST', '/resource_providers', { uuid: plan.uuid, name: plan.name, ...(plan.parent ? { parent_provider_uuid: plan.parent } : {}) }, [200]);
  const base = `/resource_providers/${plan.uuid}`;
  let generation = 0;
  let requests = 1;
  if (Object.keys(plan.inventories).length > 0) {
    await client.expect('PUT', `${base}/inventories`, { resource_provider_generation: generation++, inventories: plan.inventories }, [200]);
    requests++;
  }
  if (plan.aggregates.length > 0) {
    await client.expect('PUT', `${base}/aggregates`, { resource_provider_generation: generation++, aggregates: plan.aggregates }, [200]);
    requests++;
  }
  if (plan.traits.length > 0) {
    await client.expect('PUT', `${base}/traits`, { resource_provider_generation: generation++, traits: plan.traits }, [200]);
    requests++;
  }
  return requests;
}

/** Every tree through the API by 10 loaders, each tree root first; says how many requests it took. */
export async function loadCloud(client: BenchClient, trees: readonly TreePlan[]): Promise<number> {
  let requests = 0;
  await inParallel(trees.length, LOADERS, async (i) => {
    for (const provider of trees[i]) {
      // Not `requests += await …`: that reads the sum before the wait and loses the other loaders' counts.
      const made = await loadProvider(client, provider);
      requests += made;
    }
  });
  return requests;
}
