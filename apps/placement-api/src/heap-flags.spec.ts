import { missingHeapFlags, SERVING_HEAP_FLAGS } from './heap-flags.js';

describe('missingHeapFlags', () => {
  it('adds every serving flag to a plain command line', () => {
    expect(missingHeapFlags([])).toEqual(SERVING_HEAP_FLAGS);
  });

  it("keeps the operator's own young generation size, either bound, in either spelling", () => {
    expect(missingHeapFlags(['--max-semi-space-size=32'])).toEqual(['--expose-gc']);
    expect(missingHeapFlags(['--min_semi_space_size=8'])).toEqual(['--expose-gc']);
    expect(missingHeapFlags(['--max_semi_space_size=32', '--expose-gc'])).toEqual([]);
  });
});
