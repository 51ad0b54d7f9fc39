import { randomUUID } from 'node:crypto';
import { BenchClient, inParallel } from './http.js';

/** How long loading took and what it made. */
export interface LoadFigures {
  readonly providers: number;
  readonly requests: number;
  readonly seconds: number;
  /** Claims written after loading (flat shape), and how long they took. */
  readonly claims?: { readonly count: number; readonly seconds: number };
}

export interface Shape {
  readonly name: string;
  readonly description: string;
  /** The query upstream's job times. */
  readonly query: string;
  /** How many timed requests a phase makes: single-client, then 10 clients. */
  readonly singleRequests: number;
  readonly concurrentRequests: number;
  /** Server settings for this shape. */
  readonly serverEnv?: Record<string, string>;
  load(client: BenchClient): Promise<LoadFigures>;
}

const LOADERS = 10;
/** Upstream generates every candidate (also our default since the cap follows upstream's -1). */
const UNCAPPED = { PLACEMENT_MAX_ALLOCATION_CANDIDATES: '-1' };
/**
 * The wide shape was measured with the generation cap of 10000 that used to be our default: 8
 * groups over 8 children make 8! = 40320 candidates, so it keeps that cap to stay comparable.
 */
const WIDE_CAP = { PLACEMENT_MAX_ALLOCATION_CANDIDATES: '10000' };
const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

// perfload-shapes.md: A0 is fixed; A1 and A2 are any fixed uuids.
export const A0 = '14a5c8a3-5a99-4e8f-88be-00d85fcb1c17';
export const A1 = '5d0b3b8b-4c64-4c51-9d58-6b0b0f1b3a11';
export const A2 = 'c3a0e7e2-0d49-4c1e-a5b7-9f3f8a3b2c22';
export const FLAT_AGGREGATES = [[A0], [A0, A1], [A0, A1, A2]];
export const FLAT_TRAITS = [['HW_CPU_X86_AVX2'], ['HW_CPU_X86_AVX2', 'HW_CPU_X86_SSE2'], ['HW_CPU_X86_AVX2', 'HW_CPU_X86_SSE2', 'STORAGE_DISK_SSD']];
export const FLAT_QUERY = `/allocation_candidates?resources=VCPU:1,DISK_GB:10,MEMORY_MB:256&member_of=${A0}&required=HW_CPU_X86_AVX2`;

/** One flat provider's four requests, as placeload makes it: create, inventories, aggregates, traits. */
export function flatProviderSteps(client: BenchClient, i: number): [string, () => Promise<unknown>][] {
  const uuid = randomUUID();
  const base = `/resource_providers/${uuid}`;
  return [
    ['POST provider', () => client.expect('POST', '/resource_providers', { uuid, name: uuid }, [200])],
    ['PUT inventories', () => client.expect('PUT', `${base}/inventories`, {
      resource_provider_generation: 0,
      inventories: {
        VCPU: { total: 32, min_unit: 1, max_unit: 16 },
        MEMORY_MB: { total: 8192, min_unit: 128, max_unit: 8192 },
        DISK_GB: { total: 8192, min_unit: 5, max_unit: 8192 },
      },
    }, [200])],
    ['PUT aggregates', () => client.expect('PUT', `${base}/aggregates`, { resource_provider_generation: 1, aggregates: FLAT_AGGREGATES[i % 3] }, [200])],
    ['PUT traits', () => client.expect('PUT', `${base}/traits`, { resource_provider_generation: 2, traits: FLAT_TRAITS[i % 3] }, [200])],
  ];
}

/** One flat provider, its four requests one after the other. */
export async function flatProvider(client: BenchClient, i: number): Promise<void> {
  for (const [, step] of flatProviderSteps(client, i)) await step();
}

/** The job's claims: take the first candidate of a limit=5 query and PUT it for a new consumer. */
async function claim(client: BenchClient): Promise<void> {
  const candidates = JSON.parse((await client.expect('GET', `${FLAT_QUERY}&limit=5`, undefined, [200])).body);
  await client.expect('PUT', `/allocations/${randomUUID()}`, {
    allocations: candidates.allocation_requests[0].allocations,
    project_id: randomUUID(), user_id: randomUUID(), consumer_generation: null, consumer_type: 'INSTANCE',
  }, [204]);
}

export function flatShape(count: number, singleRequests: number): Shape {
  return {
    name: `flat-${count}`,
    description: `${count} flat providers (+10 preheat), 99 claims, placeload's query`,
    query: FLAT_QUERY,
    singleRequests,
    concurrentRequests: 500,
    serverEnv: UNCAPPED,
    async load(client) {
      await inParallel(10, LOADERS, (i) => flatProvider(client, i));
      const start = process.hrtime.bigint();
      await inParallel(count, LOADERS, (i) => flatProvider(client, i + 10));
      const loaded = seconds(start);
      const claimStart = process.hrtime.bigint();
      for (let i = 0; i < 99; i++) await claim(client);
      return { providers: count, requests: count * 4, seconds: loaded, claims: { count: 99, seconds: seconds(claimStart) } };
    },
  };
}

/** One nested tree of perfload-nested: a compute node, two NUMA nodes, three FPGAs, a pGPU. */
async function nestedTree(client: BenchClient, i: number): Promise<number> {
  let requests = 0;
  const make = async (name: string, parent: string | null, inventories: object, traits: string[]) => {
    const uuid = randomUUID();
    await client.expect('POST', '/resource_providers', { uuid, name: `${name}-${i}`, ...(parent ? { parent_provider_uuid: parent } : {}) }, [200]);
    await client.expect('PUT', `/resource_providers/${uuid}/inventories`, { resource_provider_generation: 0, inventories }, [200]);
    requests += 2;
    if (traits.length > 0) {
      await client.expect('PUT', `/resource_providers/${uuid}/traits`, { resource_provider_generation: 1, traits }, [200]);
      requests++;
    }
    return uuid;
  };
  const cn = await make('cn', null, { DISK_GB: { total: 20480 } }, ['COMPUTE_VOLUME_MULTI_ATTACH']);
  const numa0 = await make('numa0', cn, { VCPU: { total: 4, reserved: 2 }, MEMORY_MB: { total: 2048, min_unit: 512, step_size: 256 } }, ['HW_NUMA_ROOT']);
  await make('fpga0', numa0, { FPGA: { total: 1 } }, []);
  await make('pgpu0', numa0, { VGPU: { total: 8 } }, []);
  const numa1 = await make('numa1', cn, { VCPU: { total: 4 }, MEMORY_MB: { total: 2048, min_unit: 256, max_unit: 1024 } }, ['HW_NUMA_ROOT', 'CUSTOM_FOO']);
  await make('fpga1_0', numa1, { FPGA: { total: 1 } }, []);
  await make('fpga1_1', numa1, { FPGA: { total: 1 } }, []);
  return requests;
}

export function nestedShape(trees: number, singleRequests: number): Shape {
  return {
    name: `nested-${trees}`,
    description: `${trees} trees of 7 providers, perfload-nested's query`,
    query: '/allocation_candidates?resources=DISK_GB:10&required=COMPUTE_VOLUME_MULTI_ATTACH&resources_COMPUTE=VCPU:1,MEMORY_MB:256'
      + '&required_COMPUTE=CUSTOM_FOO&resources_FPGA=FPGA:1&group_policy=none&same_subtree=_COMPUTE,_FPGA',
    singleRequests,
    concurrentRequests: 500,
    serverEnv: UNCAPPED,
    async load(client) {
      await client.expect('PUT', '/traits/CUSTOM_FOO', undefined, [201, 204]);
      let requests = 1;
      const start = process.hrtime.bigint();
      await inParallel(trees, LOADERS, async (i) => {
        const made = await nestedTree(client, i);
        requests += made;
      });
      return { providers: trees * 7, requests, seconds: seconds(start) };
    },
  };
}

export function wideShape(children: number, singleRequests: number): Shape {
  const groups = Array.from({ length: children }, (_v, i) => `resources${i + 1}=PCI_DEVICE:1`).join('&');
  return {
    name: `wide-${children}`,
    description: `one root with ${children} children of 1 PCI_DEVICE each, ${children} groups of 1 unit (generation cap 10000)`,
    query: `/allocation_candidates?${groups}&group_policy=none`,
    singleRequests,
    concurrentRequests: 100,
    serverEnv: WIDE_CAP,
    async load(client) {
      const start = process.hrtime.bigint();
      const root = randomUUID();
      await client.expect('POST', '/resource_providers', { uuid: root, name: 'wide-root' }, [200]);
      for (let i = 0; i < children; i++) {
        const uuid = randomUUID();
        await client.expect('POST', '/resource_providers', { uuid, name: `pci-${i}`, parent_provider_uuid: root }, [200]);
        await client.expect('PUT', `/resource_providers/${uuid}/inventories`, { resource_provider_generation: 0, inventories: { PCI_DEVICE: { total: 1 } } }, [200]);
      }
      return { providers: children + 1, requests: 1 + children * 2, seconds: seconds(start) };
    },
  };
}

export const SHAPES: Record<string, () => Shape> = {
  'flat-1000': () => flatShape(1000, 200),
  'flat-10000': () => flatShape(10000, 50),
  'nested-1000': () => nestedShape(1000, 100),
  'wide-8': () => wideShape(8, 20),
};
