import { PlacementClient } from './placement-client.js';

/**
 * The state the migration proof moves between upstream Placement and ours, built only through
 * the HTTP API so that both servers can be filled by the same calls. Every id is fixed and every
 * call is made one after the other: generations come out the same on any server that counts
 * them as upstream does.
 */
const id = (n: number) => `0c0ffee0-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

export const RP = {
  cn1: id(0x101), numa0: id(0x102), numa1: id(0x103), pf0: id(0x104), gpu0: id(0x105),
  cn2: id(0x201), ss1: id(0x301), ss2: id(0x302),
  cn3: id(0x401), cn3nic: id(0x402),
  cn4: id(0x501), stray: id(0x502), legacy: id(0x601), gone: id(0x701),
} as const;

export const AGG = { a: id(0xa01), b: id(0xa02), c: id(0xa03) } as const;

export const CONSUMER = {
  inst1: id(0xc01), inst2: id(0xc02), mig1: id(0xc03), old1: id(0xc04), old2: id(0xc05),
  bat1: id(0xc06), bat2: id(0xc07), c128: id(0xc08), resh1: id(0xc09),
  gone1: id(0xc0a), empty1: id(0xc0b), legacyOwner: id(0xc0c),
} as const;

export const PROJECT = { alpha: '7a1f0a0b0c0d4e0f8a1b2c3d4e5f6071', beta: '7b2f0a0b0c0d4e0f8a1b2c3d4e5f6072', gamma: '7c3f0a0b0c0d4e0f8a1b2c3d4e5f6073' } as const;
export const USER = { u1: 'a11ce000000040008000000000000001', u2: 'b0b00000000040008000000000000002', u3: 'ca401000000040008000000000000003' } as const;

/** The project and user upstream gives a consumer written below 1.8 ([placement] incomplete_consumer_*_id). */
export const INCOMPLETE_CONSUMER_ID = '00000000-0000-0000-0000-000000000000';

export const CUSTOM_CLASSES = ['CUSTOM_PROOF_BW', 'CUSTOM_PROOF_GPU_SLICE', 'CUSTOM_PROOF_RENAMED'] as const;
export const CUSTOM_TRAITS = ['CUSTOM_PROOF_FAST', 'CUSTOM_PROOF_GOLD', 'CUSTOM_PROOF_UNUSED'] as const;

/** What a comparison needs to know beyond what listings reveal (consumers cannot be listed). */
export interface ProofState {
  readonly providers: readonly string[];
  readonly consumers: readonly string[];
  readonly projects: readonly string[];
  readonly users: readonly string[];
  readonly aggregates: readonly string[];
  readonly customClasses: readonly string[];
  readonly customTraits: readonly string[];
  readonly consumerTypes: readonly string[];
}

export const PROOF_STATE: ProofState = {
  providers: Object.values(RP),
  consumers: Object.values(CONSUMER),
  projects: [...Object.values(PROJECT), INCOMPLETE_CONSUMER_ID],
  users: [...Object.values(USER), INCOMPLETE_CONSUMER_ID],
  aggregates: Object.values(AGG),
  customClasses: [...CUSTOM_CLASSES, 'CUSTOM_PROOF_TEMP', 'CUSTOM_PROOF_DOOMED'],
  customTraits: [...CUSTOM_TRAITS, 'CUSTOM_PROOF_DOOMED'],
  consumerTypes: ['INSTANCE', 'MIGRATION', 'BAREMETAL', 'unknown'],
};

type Inventory = { total: number; reserved?: number; min_unit?: number; max_unit?: number; step_size?: number; allocation_ratio?: number };

export async function buildProofFixture(api: PlacementClient): Promise<ProofState> {
  const generation = async (rp: string): Promise<number> => (await api.must('GET', `/resource_providers/${rp}`, '1.14')).generation;
  const consumerGeneration = async (c: string): Promise<number | null> =>
    (await api.must('GET', `/allocations/${c}`, '1.28')).consumer_generation ?? null;
  const putInventories = async (rp: string, inventories: Record<string, Inventory>) =>
    api.must('PUT', `/resource_providers/${rp}/inventories`, '1.20', { resource_provider_generation: await generation(rp), inventories });
  const postInventory = async (rp: string, resource_class: string, inventory: Inventory, version = '1.20') =>
    api.must('POST', `/resource_providers/${rp}/inventories`, version, { resource_provider_generation: await generation(rp), resource_class, ...inventory });
  const putTraits = async (rp: string, traits: string[]) =>
    api.must('PUT', `/resource_providers/${rp}/traits`, '1.6', { resource_provider_generation: await generation(rp), traits });
  const putAggregates = async (rp: string, aggregates: string[]) =>
    api.must('PUT', `/resource_providers/${rp}/aggregates`, '1.19', { resource_provider_generation: await generation(rp), aggregates });
  const allocate = async (c: string, version: string, body: Record<string, unknown>) =>
    api.must('PUT', `/allocations/${c}`, version, body);

  // Resource classes: created at 1.7, one created at 1.2 and renamed at 1.2 (PUT with a body renames
  // there), one created and deleted.
  await api.must('PUT', '/resource_classes/CUSTOM_PROOF_BW', '1.7');
  await api.must('PUT', '/resource_classes/CUSTOM_PROOF_GPU_SLICE', '1.7');
  await api.must('POST', '/resource_classes', '1.2', { name: 'CUSTOM_PROOF_TEMP' });
  await api.must('PUT', '/resource_classes/CUSTOM_PROOF_TEMP', '1.2', { name: 'CUSTOM_PROOF_RENAMED' });
  await api.must('PUT', '/resource_classes/CUSTOM_PROOF_DOOMED', '1.7');
  await api.must('DELETE', '/resource_classes/CUSTOM_PROOF_DOOMED', '1.7');
  for (const trait of [...CUSTOM_TRAITS, 'CUSTOM_PROOF_DOOMED']) await api.must('PUT', `/traits/${trait}`, '1.6');
  await api.must('DELETE', '/traits/CUSTOM_PROOF_DOOMED', '1.6');

  // Providers: a NUMA tree (cn1 → numa0/numa1 → pf0/gpu0), a flat compute, two sharing providers,
  // a tree to reshape, one renamed and one re-parented, one made at 1.0, one deleted.
  const create = (uuid: string, name: string, parent?: string, version = '1.20') =>
    api.must('POST', '/resource_providers', version, parent ? { uuid, name, parent_provider_uuid: parent } : { uuid, name });
  await create(RP.cn1, 'proof-cn1');
  await create(RP.numa0, 'proof-cn1-numa0', RP.cn1);
  await create(RP.numa1, 'proof-cn1-numa1', RP.cn1);
  await create(RP.pf0, 'proof-cn1-numa0-pf0', RP.numa0);
  await create(RP.gpu0, 'proof-cn1-numa1-gpu0', RP.numa1);
  await create(RP.cn2, 'proof-cn2');
  await create(RP.ss1, 'proof-ss1');
  await create(RP.ss2, 'proof-ss2');
  await create(RP.cn3, 'proof-cn3');
  await create(RP.cn4, 'proof-cn4-old');
  await create(RP.stray, 'proof-stray', RP.cn2);
  await create(RP.legacy, 'proof-legacy', undefined, '1.0');
  await create(RP.gone, 'proof-gone');

  const numa: Record<string, Inventory> = {
    VCPU: { total: 16, reserved: 1, min_unit: 1, max_unit: 8, step_size: 1, allocation_ratio: 4.0 },
    MEMORY_MB: { total: 32768, reserved: 512, min_unit: 256, max_unit: 16384, step_size: 256, allocation_ratio: 1.5 },
  };
  await putInventories(RP.cn1, { DISK_GB: { total: 400, reserved: 10, max_unit: 200, allocation_ratio: 1.0 } });
  await putInventories(RP.numa0, numa);
  // The same inventory one class at a time: numa1 ends a generation further than numa0.
  for (const [rc, inventory] of Object.entries(numa)) await postInventory(RP.numa1, rc, inventory);
  await putInventories(RP.pf0, {
    SRIOV_NET_VF: { total: 8, max_unit: 4 },
    CUSTOM_PROOF_BW: { total: 10000, min_unit: 100, max_unit: 5000, step_size: 100 },
  });
  await putInventories(RP.gpu0, { VGPU: { total: 4, max_unit: 2 }, CUSTOM_PROOF_GPU_SLICE: { total: 16, step_size: 2 } });
  await putInventories(RP.cn2, {
    VCPU: { total: 8, allocation_ratio: 16.0 },
    MEMORY_MB: { total: 16384, reserved: 1024, allocation_ratio: 1.0 },
    DISK_GB: { total: 500, reserved: 50 },
  });
  await api.must('PUT', `/resource_providers/${RP.cn2}/inventories/VCPU`, '1.20',
    { resource_provider_generation: await generation(RP.cn2), total: 12, allocation_ratio: 8.0, max_unit: 12 });
  await putInventories(RP.ss1, { DISK_GB: { total: 10000, reserved: 100, min_unit: 10, max_unit: 2000, step_size: 10, allocation_ratio: 1.0 } });
  await putInventories(RP.ss2, { DISK_GB: { total: 2000, max_unit: 2000 }, IPV4_ADDRESS: { total: 254, max_unit: 8 } });
  await putInventories(RP.cn3, { VCPU: { total: 8 }, CUSTOM_PROOF_BW: { total: 4000, step_size: 100 } });
  await putInventories(RP.cn4, { VCPU: { total: 4, reserved: 1 } });
  await putInventories(RP.stray, { VCPU: { total: 2 } });
  await postInventory(RP.legacy, 'MEMORY_MB', { total: 2048, reserved: 0 }, '1.0');
  await putInventories(RP.gone, { DISK_GB: { total: 10 } });

  await putTraits(RP.cn1, ['HW_CPU_X86_AVX2', 'CUSTOM_PROOF_FAST']);
  await putTraits(RP.numa0, ['HW_NUMA_ROOT']);
  await putTraits(RP.numa1, ['HW_NUMA_ROOT', 'HW_CPU_X86_AVX2']);
  await putTraits(RP.pf0, ['HW_NIC_SRIOV', 'CUSTOM_PROOF_GOLD']);
  await putTraits(RP.gpu0, ['CUSTOM_PROOF_GOLD']);
  // Several updates: cn2's generation moves further than its content shows.
  await putTraits(RP.cn2, ['HW_CPU_X86_SSE42']);
  await putTraits(RP.cn2, ['HW_CPU_X86_SSE42', 'COMPUTE_STATUS_DISABLED']);
  await putTraits(RP.cn2, ['HW_CPU_X86_SSE42']);
  await putTraits(RP.ss1, ['MISC_SHARES_VIA_AGGREGATE', 'STORAGE_DISK_SSD']);
  await putTraits(RP.ss2, ['MISC_SHARES_VIA_AGGREGATE']);
  await putTraits(RP.cn3, ['CUSTOM_PROOF_FAST']);

  await putAggregates(RP.cn1, [AGG.a]);
  await putAggregates(RP.ss1, [AGG.a, AGG.b]);
  await putAggregates(RP.cn2, [AGG.b]);
  await putAggregates(RP.ss2, [AGG.b]);
  // Below 1.19 the body is a bare list and the generation does not move.
  await api.must('PUT', `/resource_providers/${RP.cn4}/aggregates`, '1.1', [AGG.c]);
  await putAggregates(RP.cn4, [AGG.c, AGG.b]);

  await api.must('PUT', `/resource_providers/${RP.cn4}`, '1.14', { name: 'proof-cn4', parent_provider_uuid: null });
  await api.must('PUT', `/resource_providers/${RP.stray}`, '1.37', { name: 'proof-stray', parent_provider_uuid: RP.cn4 });

  const owner = (project: string, user: string, consumer_type?: string) =>
    consumer_type ? { project_id: project, user_id: user, consumer_type } : { project_id: project, user_id: user };
  await allocate(CONSUMER.inst1, '1.38', {
    allocations: { [RP.numa0]: { resources: { VCPU: 2, MEMORY_MB: 2048 } }, [RP.ss1]: { resources: { DISK_GB: 20 } } },
    consumer_generation: null, ...owner(PROJECT.alpha, USER.u1, 'INSTANCE'),
  });
  await allocate(CONSUMER.inst2, '1.38', {
    allocations: { [RP.cn2]: { resources: { VCPU: 4, MEMORY_MB: 4096, DISK_GB: 100 } } },
    consumer_generation: null, ...owner(PROJECT.alpha, USER.u2, 'INSTANCE'),
  });
  await allocate(CONSUMER.inst2, '1.38', {
    allocations: { [RP.cn2]: { resources: { VCPU: 2, MEMORY_MB: 4096, DISK_GB: 100 } } },
    consumer_generation: await consumerGeneration(CONSUMER.inst2), ...owner(PROJECT.alpha, USER.u2, 'INSTANCE'),
  });
  await allocate(CONSUMER.mig1, '1.38', {
    allocations: { [RP.cn2]: { resources: { VCPU: 1, MEMORY_MB: 512 } } },
    consumer_generation: null, ...owner(PROJECT.beta, USER.u1, 'MIGRATION'),
  });
  // Below 1.8 there is no project or user: upstream records the incomplete-consumer ids.
  await allocate(CONSUMER.old1, '1.0', { allocations: [{ resource_provider: { uuid: RP.legacy }, resources: { MEMORY_MB: 512 } }] });
  await allocate(CONSUMER.old2, '1.8', {
    allocations: [{ resource_provider: { uuid: RP.cn4 }, resources: { VCPU: 1 } }], ...owner(PROJECT.gamma, USER.u3),
  });
  await api.must('POST', '/allocations', '1.38', {
    [CONSUMER.bat1]: {
      allocations: {
        [RP.numa1]: { resources: { VCPU: 4 } },
        [RP.gpu0]: { resources: { VGPU: 1, CUSTOM_PROOF_GPU_SLICE: 2 } },
        [RP.ss2]: { resources: { DISK_GB: 50, IPV4_ADDRESS: 1 } },
      },
      consumer_generation: null, ...owner(PROJECT.beta, USER.u2, 'BAREMETAL'),
    },
    [CONSUMER.bat2]: {
      allocations: { [RP.pf0]: { resources: { SRIOV_NET_VF: 2, CUSTOM_PROOF_BW: 1000 } }, [RP.numa0]: { resources: { VCPU: 1 } } },
      consumer_generation: null, ...owner(PROJECT.alpha, USER.u1, 'INSTANCE'),
    },
  });
  // At 1.28-1.37 a consumer gets no type (upstream shows it as "unknown" in usages at 1.38).
  await allocate(CONSUMER.c128, '1.28', {
    allocations: { [RP.cn1]: { resources: { DISK_GB: 10 } } }, consumer_generation: null, ...owner(PROJECT.alpha, USER.u1),
  });
  await allocate(CONSUMER.legacyOwner, '1.38', {
    allocations: { [RP.stray]: { resources: { VCPU: 1 } } }, consumer_generation: null, ...owner(PROJECT.gamma, USER.u3, 'INSTANCE'),
  });

  // Reshape: cn3's bandwidth moves with its allocation from the root to a new child.
  await allocate(CONSUMER.resh1, '1.38', {
    allocations: { [RP.cn3]: { resources: { VCPU: 2, CUSTOM_PROOF_BW: 1000 } } },
    consumer_generation: null, ...owner(PROJECT.beta, USER.u1, 'INSTANCE'),
  });
  await create(RP.cn3nic, 'proof-cn3-nic', RP.cn3);
  // At 1.30, the reshaper's first version: no consumer_type in the body, so the consumer keeps INSTANCE.
  await api.must('POST', '/reshaper', '1.30', {
    inventories: {
      [RP.cn3]: { resource_provider_generation: await generation(RP.cn3), inventories: { VCPU: { total: 8 } } },
      [RP.cn3nic]: { resource_provider_generation: await generation(RP.cn3nic), inventories: { CUSTOM_PROOF_BW: { total: 4000, step_size: 100 } } },
    },
    allocations: {
      [CONSUMER.resh1]: {
        allocations: { [RP.cn3]: { resources: { VCPU: 2 } }, [RP.cn3nic]: { resources: { CUSTOM_PROOF_BW: 1000 } } },
        consumer_generation: await consumerGeneration(CONSUMER.resh1), ...owner(PROJECT.beta, USER.u1),
      },
    },
  });

  // A consumer deleted outright, and one emptied by a write of no allocations.
  await allocate(CONSUMER.gone1, '1.38', {
    allocations: { [RP.cn2]: { resources: { DISK_GB: 5 } } }, consumer_generation: null, ...owner(PROJECT.beta, USER.u2, 'INSTANCE'),
  });
  await api.must('DELETE', `/allocations/${CONSUMER.gone1}`, '1.38');
  await allocate(CONSUMER.empty1, '1.38', {
    allocations: { [RP.cn1]: { resources: { DISK_GB: 1 } } }, consumer_generation: null, ...owner(PROJECT.gamma, USER.u3, 'INSTANCE'),
  });
  await allocate(CONSUMER.empty1, '1.38', {
    allocations: {}, consumer_generation: await consumerGeneration(CONSUMER.empty1), ...owner(PROJECT.gamma, USER.u3, 'INSTANCE'),
  });

  await api.must('DELETE', `/resource_providers/${RP.gone}`, '1.14');
  return PROOF_STATE;
}
