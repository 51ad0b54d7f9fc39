import { activeProvider, PlainProvider } from '../../../../../libs/placement/src/candidates/index/plain-index.js';
import { capacityView } from './capacity.view.js';

const providers = (...plain: PlainProvider[]) => () => plain.map(activeProvider);
const usage = (entries: Record<string, Record<string, number>>) =>
  new Map(Object.entries(entries).map(([project, classes]) => [project, new Map(Object.entries(classes))]));

describe('the console\'s capacity view', () => {
  const cloud = providers(
    { uuid: 'a', inventories: { VCPU: { total: 8, reserved: 2, allocation_ratio: 2 }, DISK_GB: { total: 100 } }, aggregates: ['agg1'], used: { VCPU: 5 } },
    { uuid: 'b', inventories: { VCPU: { total: 4 } }, aggregates: ['agg1', 'agg2'], used: { VCPU: 1 } },
    { uuid: 'c', inventories: { VCPU: { total: 2 } } },
  );

  it('sums each class over every provider, with free as capacity less used', () => {
    const view = capacityView(cloud, new Map(), 3);
    expect(view.resource_classes.map(({ top_projects: _, ...figures }) => figures)).toEqual([
      { resource_class: 'DISK_GB', total: 100, reserved: 0, capacity: 100, used: 0, free: 100 },
      { resource_class: 'VCPU', total: 14, reserved: 2, capacity: 12 + 4 + 2, used: 6, free: 12 },
    ]);
  });

  it('splits by aggregate, a provider in none under null, listed last', () => {
    const view = capacityView(cloud, new Map(), 3);
    expect(view.aggregates.map((a) => [a.aggregate, a.resource_classes.map((c) => [c.resource_class, c.capacity, c.used])])).toEqual([
      ['agg1', [['DISK_GB', 100, 0], ['VCPU', 16, 6]]],
      ['agg2', [['VCPU', 4, 1]]],
      [null, [['VCPU', 2, 0]]],
    ]);
  });

  it('ranks the projects using most of each class, most first, ties by id, cut at top', () => {
    const view = capacityView(cloud, usage({ p1: { VCPU: 2 }, p2: { VCPU: 3, DISK_GB: 1 }, p0: { VCPU: 2 } }), 2);
    expect(view.resource_classes.find((c) => c.resource_class === 'VCPU')!.top_projects)
      .toEqual([{ project_id: 'p2', used: 3 }, { project_id: 'p0', used: 2 }]);
    expect(view.resource_classes.find((c) => c.resource_class === 'DISK_GB')!.top_projects).toEqual([{ project_id: 'p2', used: 1 }]);
  });

  it('is empty for a cloud without inventory', () => {
    expect(capacityView(providers({ uuid: 'x' }), usage({ p: { VCPU: 1 } }), 5)).toEqual({ resource_classes: [], aggregates: [] });
  });
});
