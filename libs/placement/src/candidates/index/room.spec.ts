import { activeProvider } from './plain-index.js';
import { roomsOf } from './room.js';

describe('roomsOf', () => {
  it('leaves (total - reserved) * ratio minus usage per class, with its units', () => {
    const rooms = roomsOf(activeProvider({
      uuid: 'p',
      inventories: { VCPU: { total: 10, reserved: 2, allocation_ratio: 1.5 }, MEMORY_MB: { total: 2048, min_unit: 256, max_unit: 1024, step_size: 256 } },
      used: { VCPU: 10 },
    }));
    expect(Object.fromEntries(rooms)).toEqual({
      VCPU: { free: 2, min: 1, max: 2147483647, step: 1 },
      MEMORY_MB: { free: 2048, min: 256, max: 1024, step: 256 },
    });
  });

  it('truncates a fractional capacity and goes below zero when usage exceeds it, as the capacity clause reads', () => {
    const rooms = roomsOf(activeProvider({ uuid: 'p', inventories: { DISK_GB: { total: 3, allocation_ratio: 1.5 } }, used: { DISK_GB: 5 } }));
    expect(rooms.get('DISK_GB')!.free).toBe(-1);
  });

  it('has no room for a class used but no longer in inventory', () => {
    expect(roomsOf(activeProvider({ uuid: 'p', used: { VCPU: 1 } })).size).toBe(0);
  });
});
