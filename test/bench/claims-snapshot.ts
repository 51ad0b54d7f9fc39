import { counterValue, ProviderSnapshot, ReadBack, Resources } from './claims-check.js';
import { BenchClient, inParallel } from './http.js';

const READERS = 10;

/**
 * Every provider's inventories and usages as the API reports them after the rounds, or only those
 * of `only` (a storm over 10,000 providers reads back those its claims touched).
 */
export async function providerSnapshots(client: BenchClient, only?: readonly string[]): Promise<ProviderSnapshot[]> {
  const list = only?.map((uuid) => ({ uuid }))
    ?? JSON.parse((await client.expect('GET', '/resource_providers', undefined, [200])).body).resource_providers as { uuid: string }[];
  const snapshots: ProviderSnapshot[] = new Array(list.length);
  await inParallel(list.length, READERS, async (i) => {
    const uuid = list[i].uuid;
    const [inventories, usages] = await Promise.all([
      client.expect('GET', `/resource_providers/${uuid}/inventories`, undefined, [200]),
      client.expect('GET', `/resource_providers/${uuid}/usages`, undefined, [200]),
    ]);
    snapshots[i] = { uuid, inventories: JSON.parse(inventories.body).inventories, usages: JSON.parse(usages.body).usages };
  });
  return snapshots;
}

/** GET /allocations/{consumer} for each consumer, keyed by consumer. */
export async function readConsumers(client: BenchClient, consumers: readonly string[]): Promise<Map<string, ReadBack>> {
  const read = new Map<string, ReadBack>();
  await inParallel(consumers.length, READERS, async (i) => {
    read.set(consumers[i], JSON.parse((await client.expect('GET', `/allocations/${consumers[i]}`, undefined, [200])).body));
  });
  return read;
}

/**
 * A project's usages (GET /usages, 1.38+: grouped by consumer type), summed over the types; at
 * `version` below 1.38 the flat form, without a consumer count (upstream 8.0.0 on PostgreSQL
 * answers the grouped form with a 500, a GROUP BY its SQL lacks).
 */
export async function projectUsages(client: BenchClient, projectId: string, version?: string): Promise<{ usages: Resources; consumers: number }> {
  const answer = JSON.parse((await client.expect('GET', `/usages?project_id=${projectId}`, undefined, [200], version)).body).usages as Record<string, number | Record<string, number>>;
  if (Object.values(answer).every((value) => typeof value === 'number')) return { usages: answer as Record<string, number>, consumers: NaN };
  const groups = answer as Record<string, Record<string, number>>;
  const usages: Record<string, number> = {};
  let consumers = 0;
  for (const group of Object.values(groups)) {
    for (const [key, value] of Object.entries(group)) {
      if (key === 'consumer_count') consumers += value;
      else usages[key] = (usages[key] ?? 0) + value;
    }
  }
  return { usages, consumers };
}

/** The server's count of appends refused for a stale expected revision: each one is an internal retry. */
export async function appendConflicts(client: BenchClient): Promise<number> {
  return counterValue((await client.expect('GET', '/metrics', undefined, [200])).body, 'placement_event_store_append_conflicts_total');
}

/** Statements the server has sent to PostgreSQL (round trips), or null when it does not say (upstream). */
export async function databaseStatements(client: BenchClient): Promise<number | null> {
  const reply = await client.call('GET', '/metrics');
  if (reply.status !== 200 || !/^placement_database_statements_total /m.test(reply.body)) return null;
  return counterValue(reply.body, 'placement_database_statements_total');
}

/** The server's transactions shared by several appends (group commit) so far, or null when it does not say (upstream). */
export interface SharedTally { readonly together: number; readonly appends: number; readonly fellBack: number }

export async function sharedTally(client: BenchClient): Promise<SharedTally | null> {
  const reply = await client.call('GET', '/metrics');
  const total = 'placement_event_store_shared_transactions_total';
  if (reply.status !== 200 || !reply.body.includes(`${total}{`)) return null;
  return {
    together: counterValue(reply.body, `${total}{outcome="together"}`),
    appends: counterValue(reply.body, 'placement_event_store_shared_appends_total'),
    fellBack: counterValue(reply.body, `${total}{outcome="fell_back"}`),
  };
}

/** What the batches did between two tallies: how many appends a shared transaction carried, and how many fell back. */
export function sharedSince(before: SharedTally | null, after: SharedTally | null): string {
  if (!before || !after) return 'shared transactions ?';
  const together = after.together - before.together;
  const carried = together === 0 ? '-' : ((after.appends - before.appends) / together).toFixed(1);
  return `${together} shared transactions of ${carried} appends, ${after.fellBack - before.fellBack} fell back`;
}
