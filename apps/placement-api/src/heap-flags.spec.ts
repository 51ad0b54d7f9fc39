import { missingHeapFlags, SERVING_HEAP_FLAGS } from './heap-flags.js';

describe('missingHeapFlags', () => {
  it('adds every serving flag to a plain command line', () => {
    expect(missingHeapFlags([])).toEqual(SERVING_HEAP_FLAGS);
  });

  it("keeps the operator's own young generation size, in either spelling", () => {
    expect(missingHeapFlags(['--max-semi-space-size=16'])).toEqual(['--expose-gc']);
    expect(missingHeapFlags(['--max_semi_space_size=16', '--expose-gc'])).toEqual([]);
  });
});
