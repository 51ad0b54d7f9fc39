import { overCommitted, Resources } from '../claims-check.js';
import { claimedPerProject, projectMismatches, touchedProviders } from './consistency.js';

const claim = (consumer: string, projectId: string, allocations: Record<string, Record<string, number>>) =>
  ({ consumer, projectId, allocations: Object.fromEntries(Object.entries(allocations).map(([rp, resources]) => [rp, { resources }])) });

describe("the storm's consistency check", () => {
  const claims = [
    claim('c1', 'p1', { cn1: { VCPU: 1, MEMORY_MB: 512 } }),
    claim('c2', 'p1', { cn2: { DISK_GB: 40 }, numa: { VCPU: 2, MEMORY_MB: 2048 } }),
    claim('c3', 'p2', { cn1: { VCPU: 4 } }),
  ];

  it("sums each project's claims over every provider of mixed flavors", () => {
    expect(claimedPerProject(claims)).toEqual(new Map([['p1', { VCPU: 3, MEMORY_MB: 2560, DISK_GB: 40 }], ['p2', { VCPU: 4 }]]));
    expect(touchedProviders(claims)).toEqual(['cn1', 'cn2', 'numa']);
  });

  it('finds nothing when usages equal the claims, a zero counting as absent', () => {
    const reported = new Map<string, Resources>([['p1', { VCPU: 3, MEMORY_MB: 2560, DISK_GB: 40 }], ['p2', { VCPU: 4, DISK_GB: 0 }]]);
    expect(projectMismatches(claimedPerProject(claims), reported)).toEqual([]);
  });

  it('names a project that holds more or less than its claims, and one that holds anything without claims', () => {
    const reported = new Map<string, Resources>([['p1', { VCPU: 3, MEMORY_MB: 2048, DISK_GB: 40 }], ['p2', { VCPU: 4 }], ['p3', { VCPU: 1 }]]);
    expect(projectMismatches(claimedPerProject(claims), reported)).toEqual([
      'project p1: 2048 MEMORY_MB used, its claims hold 2560',
      'project p3: 1 VCPU used, its claims hold 0',
    ]);
  });

  it('counts (total - reserved) * allocation_ratio as a class\'s capacity (claims-check.ts)', () => {
    const inventory = { total: 16, reserved: 2, allocation_ratio: 1.5 };
    expect(overCommitted([{ uuid: 'numa', inventories: { VCPU: inventory }, usages: { VCPU: 21 } }])).toEqual([]);
    expect(overCommitted([{ uuid: 'numa', inventories: { VCPU: inventory }, usages: { VCPU: 22 } }])).toEqual(['numa: 22 VCPU used, capacity 21']);
  });
});
