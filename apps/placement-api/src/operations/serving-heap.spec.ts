import { fixHeapForServing } from './serving-heap.js';

describe('fixHeapForServing', () => {
  it('sets the serving growth and turns pretenuring off when the command line names neither', () => {
    const set = jest.fn();
    expect(fixHeapForServing(['--expose-gc', '--max-semi-space-size=16'], set)).toEqual(['--heap-growing-percent=100', '--no-allocation-site-pretenuring']);
    expect(set.mock.calls).toEqual([['--heap-growing-percent=100'], ['--no-allocation-site-pretenuring']]);
  });

  it("keeps the operator's own growth, in either spelling", () => {
    for (const given of ['--heap-growing-percent=30', '--heap_growing_percent=300']) {
      const set = jest.fn();
      expect(fixHeapForServing([given], set)).toEqual(['--no-allocation-site-pretenuring']);
      expect(set).toHaveBeenCalledTimes(1);
    }
  });

  it("keeps the operator's own pretenuring, on or off, in either spelling", () => {
    for (const given of ['--allocation-site-pretenuring', '--no-allocation-site-pretenuring', '--allocation_site_pretenuring', '--no_allocation_site_pretenuring']) {
      const set = jest.fn();
      expect(fixHeapForServing([given], set)).toEqual(['--heap-growing-percent=100']);
    }
  });

  it('is not fooled by flags that only start alike', () => {
    const set = jest.fn();
    expect(fixHeapForServing(['--heap-growing-percentage-of-nothing', '--allocation-site-pretenuring-of-nothing'], set)).toHaveLength(2);
  });
});
