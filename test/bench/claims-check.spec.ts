import {
  capacityOf, claimsPerProject, claimsThatFit, counterValue, leftovers, overCommitted, ProviderSnapshot, ReadBack, readBackMismatches, resourcesOf, usageMismatches,
} from './claims-check';

const inventory = (total: number, reserved = 0, allocation_ratio = 1) => ({ total, reserved, allocation_ratio });
const provider = (uuid: string, usages: Record<string, number>): ProviderSnapshot => ({
  uuid,
  inventories: { VCPU: inventory(10, 2, 1.5), MEMORY_MB: inventory(4096, 512) },
  usages,
});

describe('capacity', () => {
  it('is (total - reserved) * allocation_ratio, fractions kept as upstream keeps them', () => {
    expect(capacityOf(inventory(10, 2, 1.5))).toBe(12);
    expect(capacityOf(inventory(3, 0, 1.5))).toBe(4.5);
  });

  it('finds usage above capacity and usage without inventory, and accepts a provider filled exactly', () => {
    const full = provider('full', { VCPU: 12, MEMORY_MB: 3584 });
    const over = provider('over', { VCPU: 13, MEMORY_MB: 0 });
    const stray = provider('stray', { DISK_GB: 5 });
    expect(overCommitted([full])).toEqual([]);
    expect(overCommitted([full, over, stray])).toEqual(['over: 13 VCPU used, capacity 12', 'stray: 5 DISK_GB used without an inventory']);
  });

  it('counts the claims that fit by each provider\'s tightest class', () => {
    // VCPU 12 / 2 = 6 claims, MEMORY_MB 3584 / 512 = 7: VCPU decides.
    expect(claimsThatFit([provider('a', {}), provider('b', {})], { VCPU: 2, MEMORY_MB: 512 })).toBe(12);
    expect(claimsThatFit([provider('a', {})], { VCPU: 1, MEMORY_MB: 1024 })).toBe(3);
    expect(claimsThatFit([provider('a', {})], { VCPU: 1, DISK_GB: 1 })).toBe(0);
  });
});

describe('usages against the claims acknowledged', () => {
  const perClaim = { VCPU: 2, MEMORY_MB: 512 };

  it('agree when every class sums to claims times the amount', () => {
    expect(usageMismatches([{ VCPU: 4, MEMORY_MB: 1024 }, { VCPU: 2, MEMORY_MB: 512 }], perClaim, 3)).toEqual([]);
  });

  it('name each class that is off, and classes no claim asked for', () => {
    expect(usageMismatches([{ VCPU: 4, MEMORY_MB: 1024, DISK_GB: 1 }], perClaim, 3)).toEqual([
      'VCPU: 4 used in all, 3 claims of 2 make 6',
      'MEMORY_MB: 1024 used in all, 3 claims of 512 make 1536',
      'DISK_GB: 1 used in all, 3 claims of 0 make 0',
    ]);
  });
});

describe('reading consumers back', () => {
  const sent = { rp1: { resources: { VCPU: 2, MEMORY_MB: 512 } } };
  const claim = { consumer: 'c1', projectId: 'p', allocations: sent };

  it('accepts what was written, with the generation the server adds', () => {
    const read = new Map<string, ReadBack>([['c1', { allocations: { rp1: { generation: 7, resources: { MEMORY_MB: 512, VCPU: 2 } } } as never, project_id: 'p' }]]);
    expect(readBackMismatches([claim], read)).toEqual([]);
  });

  it('reports a consumer missing, holding other amounts, other providers, or another project', () => {
    expect(readBackMismatches([claim], new Map())).toEqual(['c1: not read back']);
    const cases: ReadBack[] = [
      { allocations: {}, project_id: 'p' },
      { allocations: { rp1: { resources: { VCPU: 1, MEMORY_MB: 512 } } }, project_id: 'p' },
      { allocations: { rp1: { resources: { VCPU: 2 } } }, project_id: 'p' },
      { allocations: { ...sent, rp2: { resources: { VCPU: 1 } } }, project_id: 'p' },
      { allocations: sent, project_id: 'q' },
    ];
    for (const got of cases) expect(readBackMismatches([claim], new Map([['c1', got]]))).toHaveLength(1);
  });

  it('counts the claims of each project', () => {
    const of = (consumer: string, projectId: string) => ({ consumer, projectId, allocations: sent });
    expect([...claimsPerProject([of('a', 'p'), of('b', 'q'), of('c', 'p')])]).toEqual([['p', 2], ['q', 1]]);
  });

  it('requires every refused consumer to hold nothing', () => {
    const read = new Map<string, ReadBack>([['r1', { allocations: {} }], ['r2', { allocations: sent }]]);
    expect(leftovers(['r1', 'r2', 'r3'], read)).toEqual(['r2: refused, yet holds allocations', 'r3: refused, yet not read back']);
    expect(leftovers(['r1', 'r2'], read, 'deleted')).toEqual(['r2: deleted, yet holds allocations']);
  });
});

describe('counterValue', () => {
  const text = [
    '# HELP placement_event_store_append_conflicts_total Appends refused',
    '# TYPE placement_event_store_append_conflicts_total counter',
    'placement_event_store_append_conflicts_total 17',
    'placement_event_store_append_conflicts_total_extra 3',
  ].join('\n');

  it('reads an unlabelled counter, and 0 for one not exposed', () => {
    expect(counterValue(text, 'placement_event_store_append_conflicts_total')).toBe(17);
    expect(counterValue(text, 'placement_nothing_total')).toBe(0);
  });
});

describe('resourcesOf', () => {
  it('reads one claim\'s amounts from the candidates query', () => {
    expect(resourcesOf('/allocation_candidates?resources=VCPU:1,DISK_GB:10,MEMORY_MB:256&member_of=x&required=Y')).toEqual({ VCPU: 1, DISK_GB: 10, MEMORY_MB: 256 });
    expect(resourcesOf('/allocation_candidates?member_of=x')).toEqual({});
  });
});
