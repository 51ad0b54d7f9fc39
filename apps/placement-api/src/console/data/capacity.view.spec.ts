import type { ActiveProvider } from '#domain/index.js';
import { activeProvider, PlainProvider } from '#placement/candidates/index/plain-index.js';
import { capacityView, CapacitySource } from './capacity.view.js';

/** Providers whose allocations are held by named consumers, each charged to a project. */
const holdings = (plain: PlainProvider & { held?: Record<string, Record<string, number>> }): ActiveProvider => {
  const state = activeProvider(plain);
  return plain.held ? { ...state, allocations: plain.held } : state;
};
const source = (projects: Record<string, string>, ...plain: (PlainProvider & { held?: Record<string, Record<string, number>> })[]): CapacitySource => {
  const usage = new Map<string, Map<string, number>>();
  for (const provider of plain) {
    for (const [consumer, resources] of Object.entries(provider.held ?? {})) {
      const classes = usage.get(projects[consumer]) ?? new Map<string, number>();
      usage.set(projects[consumer], classes);
      for (const [rc, units] of Object.entries(resources)) classes.set(rc, (classes.get(rc) ?? 0) + units);
    }
  }
  return { providers: () => plain.map(holdings), projectUsage: usage, projectOf: (consumer) => projects[consumer] };
};

describe('the console\'s capacity view', () => {
  const projects = { vm1: 'p1', vm2: 'p2', vm3: 'p0', vm4: 'p2' };
  const cloud = source(projects,
    { uuid: 'a', inventories: { VCPU: { total: 8, reserved: 2, allocation_ratio: 2 }, DISK_GB: { total: 100 } }, aggregates: ['agg1'],
      used: { VCPU: 5, DISK_GB: 1 }, held: { vm1: { VCPU: 2 }, vm2: { VCPU: 3, DISK_GB: 1 } } },
    { uuid: 'b', inventories: { VCPU: { total: 4 } }, aggregates: ['agg1', 'agg2'], used: { VCPU: 2 }, held: { vm3: { VCPU: 2 } } },
    { uuid: 'c', inventories: { VCPU: { total: 2 } }, used: { VCPU: 1 }, held: { vm4: { VCPU: 1 } } },
  );

  it('sums each class over every provider, with free as capacity less used', () => {
    const view = capacityView(cloud, 3);
    expect(view.resource_classes.map(({ top_projects: _, ...figures }) => figures)).toEqual([
      { resource_class: 'DISK_GB', total: 100, reserved: 0, capacity: 100, used: 1, free: 99 },
      { resource_class: 'VCPU', total: 14, reserved: 2, capacity: 12 + 4 + 2, used: 8, free: 10 },
    ]);
  });

  it('ranks the projects using most of each class, most first, ties by id, cut at top', () => {
    const view = capacityView(cloud, 2);
    expect(view.resource_classes[1].top_projects).toEqual([{ project_id: 'p2', used: 4 }, { project_id: 'p0', used: 2 }]);
    expect(view.resource_classes[0].top_projects).toEqual([{ project_id: 'p2', used: 1 }]);
  });

  it('splits by aggregate, a provider in none under null, listed last, each with its own top projects', () => {
    const view = capacityView(cloud, 3);
    expect(view.aggregates.map((a) => [a.aggregate, a.resource_classes.map((c) => [c.resource_class, c.capacity, c.used, c.top_projects])])).toEqual([
      ['agg1', [
        ['DISK_GB', 100, 1, [{ project_id: 'p2', used: 1 }]],
        ['VCPU', 16, 7, [{ project_id: 'p2', used: 3 }, { project_id: 'p0', used: 2 }, { project_id: 'p1', used: 2 }]],
      ]],
      ['agg2', [['VCPU', 4, 2, [{ project_id: 'p0', used: 2 }]]]],
      [null, [['VCPU', 2, 1, [{ project_id: 'p2', used: 1 }]]]],
    ]);
  });

  it('leaves out a holder the tally does not know, and is empty for a cloud without inventory', () => {
    const unknown = source({}, { uuid: 'a', inventories: { VCPU: { total: 2 } }, used: { VCPU: 1 }, held: { ghost: { VCPU: 1 } } });
    expect(capacityView(unknown, 5).aggregates[0].resource_classes[0].top_projects).toEqual([]);
    expect(capacityView(source({}, { uuid: 'x' }), 5)).toEqual({ resource_classes: [], aggregates: [] });
  });
});
