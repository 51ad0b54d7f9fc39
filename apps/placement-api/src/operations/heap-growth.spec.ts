import { fixHeapGrowthForServing, SERVING_HEAP_GROWING_PERCENT } from './heap-growth.js';

describe('fixHeapGrowthForServing', () => {
  it('sets the serving growth when the command line names none', () => {
    const set = jest.fn();
    expect(fixHeapGrowthForServing(['--expose-gc', '--max-semi-space-size=16'], set)).toBe(`--heap-growing-percent=${SERVING_HEAP_GROWING_PERCENT}`);
    expect(set).toHaveBeenCalledWith('--heap-growing-percent=100');
  });

  it("keeps the operator's own growth, in either spelling", () => {
    const set = jest.fn();
    expect(fixHeapGrowthForServing(['--heap-growing-percent=30'], set)).toBeUndefined();
    expect(fixHeapGrowthForServing(['--heap_growing_percent=300'], set)).toBeUndefined();
    expect(set).not.toHaveBeenCalled();
  });

  it('is not fooled by a flag that only starts alike', () => {
    const set = jest.fn();
    fixHeapGrowthForServing(['--heap-growing-percentage-of-nothing'], set);
    expect(set).toHaveBeenCalledTimes(1);
  });
});
