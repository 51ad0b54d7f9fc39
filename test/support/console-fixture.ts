import { randomUUID } from 'node:crypto';
import type { Reply, RequestOptions } from './test-app.js';

type Call = (method: string, path: string, options?: RequestOptions) => Promise<Reply>;

/** What the console's tests look for, all created through the API. */
export interface ConsoleFixture {
  readonly suffix: string;
  readonly trait: string;
  readonly aggregates: { readonly a: string; readonly b: string };
  /** cn1 (root) with numa0 and numa1 below it; cn2 a root alone, lacking cn1's traits. */
  readonly providers: { readonly cn1: string; readonly numa0: string; readonly numa1: string; readonly cn2: string };
  readonly projects: { readonly a: string; readonly b: string };
  /** vm1 was claimed, resized, then given a disk: three events. */
  readonly consumers: { readonly vm1: string; readonly vm2: string; readonly vm3: string };
  /** A time after vm1's resize and before its disk was added. */
  readonly afterResize: string;
  readonly names: (uuid: string) => string;
}

/**
 * A small cloud for the console: a nested tree with inventories, traits and aggregates, a second
 * root without the trait, and consumers of two projects, one of them changed several times.
 * `call` sends with the token the test chose (noauth2's admin or a Keystone admin's).
 */
export async function buildConsoleFixture(call: Call): Promise<ConsoleFixture> {
  const suffix = randomUUID().slice(0, 8);
  const ok = async (method: string, path: string, body?: object) => {
    const reply = await call(method, path, { version: '1.38', body });
    if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${reply.text}`);
    return reply;
  };
  const trait = `CUSTOM_FAST_NIC_${suffix.toUpperCase()}`;
  await ok('PUT', `/traits/${trait}`);
  const aggregates = { a: randomUUID(), b: randomUUID() };
  const providers = { cn1: randomUUID(), numa0: randomUUID(), numa1: randomUUID(), cn2: randomUUID() };
  const names = new Map<string, string>();
  const provider = async (key: keyof typeof providers, parent: string | null, inventories: object, traits: string[], aggs: string[]) => {
    const uuid = providers[key];
    names.set(uuid, `${key}-${suffix}`);
    await ok('POST', '/resource_providers', { name: `${key}-${suffix}`, uuid, ...(parent ? { parent_provider_uuid: parent } : {}) });
    let generation = (await ok('PUT', `/resource_providers/${uuid}/inventories`, { resource_provider_generation: 0, inventories })).body.resource_provider_generation;
    if (traits.length) generation = (await ok('PUT', `/resource_providers/${uuid}/traits`, { resource_provider_generation: generation, traits })).body.resource_provider_generation;
    if (aggs.length) await ok('PUT', `/resource_providers/${uuid}/aggregates`, { resource_provider_generation: generation, aggregates: aggs });
  };
  await provider('cn1', null, { MEMORY_MB: { total: 16384, reserved: 512 }, DISK_GB: { total: 200 } }, ['HW_CPU_X86_AVX2', trait], [aggregates.a]);
  await provider('numa0', providers.cn1, { VCPU: { total: 8 } }, [], []);
  await provider('numa1', providers.cn1, { VCPU: { total: 8, reserved: 2, allocation_ratio: 2 } }, [], []);
  await provider('cn2', null, { VCPU: { total: 16 }, MEMORY_MB: { total: 8192 }, DISK_GB: { total: 100 } }, [], [aggregates.a, aggregates.b]);

  const projects = { a: `proj-a-${suffix}`, b: `proj-b-${suffix}` };
  const consumers = { vm1: randomUUID(), vm2: randomUUID(), vm3: randomUUID() };
  const claim = (consumer: string, generation: number | null, project: string, allocations: Record<string, object>) => ok('PUT', `/allocations/${consumer}`, {
    allocations: Object.fromEntries(Object.entries(allocations).map(([rp, resources]) => [rp, { resources }])),
    project_id: project, user_id: 'alice', consumer_generation: generation, consumer_type: 'INSTANCE',
  });
  await claim(consumers.vm1, null, projects.a, { [providers.numa0]: { VCPU: 2 }, [providers.cn1]: { MEMORY_MB: 2048 } });
  await claim(consumers.vm1, 1, projects.a, { [providers.numa0]: { VCPU: 4 }, [providers.cn1]: { MEMORY_MB: 2048 } });
  await new Promise((resolve) => setTimeout(resolve, 30));
  const afterResize = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 30));
  await claim(consumers.vm1, 2, projects.a, { [providers.numa0]: { VCPU: 4 }, [providers.cn1]: { MEMORY_MB: 2048, DISK_GB: 20 } });
  await claim(consumers.vm2, null, projects.a, { [providers.cn2]: { VCPU: 4, MEMORY_MB: 4096 } });
  await claim(consumers.vm3, null, projects.b, { [providers.numa1]: { VCPU: 1 }, [providers.cn1]: { MEMORY_MB: 1024 } });
  return { suffix, trait, aggregates, providers, projects, consumers, afterResize, names: (uuid) => names.get(uuid)! };
}
