import { activeProvider, PlainProvider } from '../candidates/index/plain-index.js';
import { capacitySeries } from './capacity-series.js';

const given = (...providers: PlainProvider[]) => ({
  byClass: () => capacitySeries(providers.map(activeProvider), false),
  byAggregate: () => capacitySeries(providers.map(activeProvider), true),
});

describe('capacity series from provider states', () => {
  it('sums total, reserved, capacity and used per class over providers', () => {
    const series = given(
      { uuid: 'a', inventories: { VCPU: { total: 8, reserved: 2, allocation_ratio: 4 }, MEMORY_MB: { total: 1024 } }, used: { VCPU: 5 } },
      { uuid: 'b', inventories: { VCPU: { total: 4 } }, used: { VCPU: 1 } },
    ).byClass();
    expect(series).toEqual([
      { labels: { resource_class: 'VCPU' }, figures: { total: 12, reserved: 2, capacity: 24 + 4, used: 6 } },
      { labels: { resource_class: 'MEMORY_MB' }, figures: { total: 1024, reserved: 0, capacity: 1024, used: 0 } },
    ]);
  });

  it('truncates each provider capacity as upstream does before summing', () => {
    const series = given(
      { uuid: 'a', inventories: { VCPU: { total: 3, allocation_ratio: 1.5 } } },
      { uuid: 'b', inventories: { VCPU: { total: 3, allocation_ratio: 1.5 } } },
    ).byClass();
    expect(series[0].figures.capacity).toBe(4 + 4);
  });

  it('splits by aggregate, a provider counting in each of its aggregates and in "" when in none', () => {
    const series = given(
      { uuid: 'a', inventories: { DISK_GB: { total: 100 } }, aggregates: ['agg1', 'agg2'], used: { DISK_GB: 10 } },
      { uuid: 'b', inventories: { DISK_GB: { total: 50 } }, aggregates: ['agg1'] },
      { uuid: 'c', inventories: { DISK_GB: { total: 7 } } },
    ).byAggregate();
    expect(series).toEqual([
      { labels: { resource_class: 'DISK_GB', aggregate: 'agg1' }, figures: { total: 150, reserved: 0, capacity: 150, used: 10 } },
      { labels: { resource_class: 'DISK_GB', aggregate: 'agg2' }, figures: { total: 100, reserved: 0, capacity: 100, used: 10 } },
      { labels: { resource_class: 'DISK_GB', aggregate: '' }, figures: { total: 7, reserved: 0, capacity: 7, used: 0 } },
    ]);
  });

  it('has no series for a cloud without inventory', () => {
    expect(given({ uuid: 'a' }).byClass()).toEqual([]);
  });
});
