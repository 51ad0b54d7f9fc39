import { orderedLines, writtenOrder } from './allocation-order.js';

const lines = (list: ReturnType<typeof orderedLines>) => list.map((l) => `${l.provider}:${l.resourceClass}=${l.used}`);

describe('the order of a consumer allocation lines', () => {
  const allocations = { zz: { VCPU: 1, MEMORY_MB: 512 }, aa: { DISK_GB: 10 } };

  it('follows the order the claim wrote, providers and classes', () => {
    expect(writtenOrder(allocations)).toEqual([['zz', ['VCPU', 'MEMORY_MB']], ['aa', ['DISK_GB']]]);
    expect(lines(orderedLines(allocations, writtenOrder(allocations)))).toEqual(['zz:VCPU=1', 'zz:MEMORY_MB=512', 'aa:DISK_GB=10']);
  });

  it('given an event written before the order was recorded: providers by uuid, classes by name (code point)', () => {
    expect(lines(orderedLines(allocations))).toEqual(['aa:DISK_GB=10', 'zz:MEMORY_MB=512', 'zz:VCPU=1']);
    expect(lines(orderedLines({ p: { VCPU_X: 1, VCPUS: 2 } }))).toEqual(['p:VCPUS=2', 'p:VCPU_X=1']);
  });

  it('never loses or repeats a line the recorded order misses or names twice', () => {
    expect(lines(orderedLines(allocations, [['zz', ['MEMORY_MB', 'MEMORY_MB', 'GONE']], ['nope', ['VCPU']]])))
      .toEqual(['zz:MEMORY_MB=512', 'aa:DISK_GB=10', 'zz:VCPU=1']);
  });
});
