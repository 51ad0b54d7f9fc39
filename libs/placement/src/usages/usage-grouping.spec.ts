import { consumerTypeScope, usagesByClass, usagesByConsumerType, TypedUsageRow } from './usage-grouping.js';

// The consumer-types-1.38 arrangement: untyped consumers (3), one INSTANCE, one PONY.
const rows: TypedUsageRow[] = [
  { consumer_type: null, resource_class: 'DISK_GB', used: 1020, consumer_count: 3 },
  { consumer_type: null, resource_class: 'VCPU', used: 7, consumer_count: 3 },
  { consumer_type: 'INSTANCE', resource_class: 'DISK_GB', used: 10, consumer_count: 1 },
  { consumer_type: 'PONY', resource_class: 'DISK_GB', used: 10, consumer_count: 1 },
];

describe('the consumer_type parameter of GET /usages', () => {
  it('means every type when absent or all, untyped for unknown, else one named type', () => {
    expect(consumerTypeScope(undefined)).toEqual({ only: undefined, groupAll: false });
    expect(consumerTypeScope('all')).toEqual({ only: undefined, groupAll: true });
    expect(consumerTypeScope('unknown')).toEqual({ only: null, groupAll: false });
    expect(consumerTypeScope('PONY')).toEqual({ only: 'PONY', groupAll: false });
    // Only the lower-case words are keywords; upper-case ones are type names.
    expect(consumerTypeScope('ALL')).toEqual({ only: 'ALL', groupAll: false });
    expect(consumerTypeScope('UNKNOWN')).toEqual({ only: 'UNKNOWN', groupAll: false });
  });
});

describe('grouping usages', () => {
  it('before 1.38 sums each class over every type', () => {
    expect(usagesByClass(rows)).toEqual({ DISK_GB: 1040, VCPU: 7 });
    expect(usagesByClass([])).toEqual({});
  });

  it('from 1.38 groups by type, untyped consumers as unknown, each with its consumer count', () => {
    expect(usagesByConsumerType(rows, false)).toEqual({
      unknown: { consumer_count: 3, DISK_GB: 1020, VCPU: 7 },
      INSTANCE: { consumer_count: 1, DISK_GB: 10 },
      PONY: { consumer_count: 1, DISK_GB: 10 },
    });
  });

  it('folds every type into all, counting each consumer once', () => {
    expect(usagesByConsumerType(rows, true)).toEqual({ all: { consumer_count: 5, DISK_GB: 1040, VCPU: 7 } });
  });

  it('has no group at all when nothing is allocated', () => {
    expect(usagesByConsumerType([], true)).toEqual({});
    expect(usagesByConsumerType([], false)).toEqual({});
  });
});
