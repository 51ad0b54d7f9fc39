import { seededRandom } from '../../support/seeded-random.js';
import { A1 } from '../shapes.js';
import { amountsOf, drawFlavors, FLAT_MIX, NESTED_MIX, queryOf } from './flavors.js';

describe('the storm flavors', () => {
  it('are nine per mix, of 1-4 VCPU, 512-4096 MB and 5-80 GB, some with a required or forbidden trait, some with member_of', () => {
    for (const mix of [FLAT_MIX, NESTED_MIX]) {
      expect(mix).toHaveLength(9);
      for (const flavor of mix) {
        const { VCPU, MEMORY_MB, DISK_GB } = amountsOf(flavor);
        expect([VCPU >= 1 && VCPU <= 4, MEMORY_MB >= 512 && MEMORY_MB <= 4096, DISK_GB >= 5 && DISK_GB <= 80]).toEqual([true, true, true]);
      }
      expect(mix.some((f) => f.memberOf)).toBe(true);
    }
    expect(FLAT_MIX.some((f) => f.required?.some((t) => t.startsWith('!')))).toBe(true);
    expect(FLAT_MIX.some((f) => f.required?.some((t) => !t.startsWith('!')))).toBe(true);
  });

  it("ask Nova's question: granular groups with their traits, policy and subtree, root_required and limit=1000 last", () => {
    const vgpuNuma = NESTED_MIX.find((f) => f.name === 'vgpu.numa')!;
    expect(queryOf(vgpuNuma)).toBe('/allocation_candidates?resources=DISK_GB:40&resources_NUMA=VCPU:2,MEMORY_MB:4096&required_NUMA=HW_NUMA_ROOT'
      + '&resources_GPU=VGPU:1&group_policy=none&same_subtree=_NUMA,_GPU&root_required=!COMPUTE_STATUS_DISABLED&limit=1000');
    expect(queryOf(FLAT_MIX.find((f) => f.name === 'a1.small')!)).toBe(
      `/allocation_candidates?resources=VCPU:1,MEMORY_MB:1024,DISK_GB:10&member_of=${A1}&root_required=!COMPUTE_STATUS_DISABLED&limit=1000`);
  });

  it('sum what an instance takes over its groups', () => {
    expect(amountsOf(NESTED_MIX.find((f) => f.name === 'numa.two')!)).toEqual({ DISK_GB: 80, VCPU: 4, MEMORY_MB: 4096 });
  });

  it('are drawn by weight, the same sequence for the same seed', () => {
    const draw = (seed: number) => drawFlavors(FLAT_MIX, 4000, seededRandom(seed).next).map((f) => f.name);
    expect(draw(30)).toEqual(draw(30));
    expect(draw(30)).not.toEqual(draw(31));
    const tiny = draw(30).filter((n) => n === 'm1.tiny').length;
    // Weight 3 of 16: about 750 of 4000.
    expect(tiny).toBeGreaterThan(600);
    expect(tiny).toBeLessThan(900);
  });
});
