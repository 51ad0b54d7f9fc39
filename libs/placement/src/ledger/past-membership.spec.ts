import { INDEXED_LOOKUPS } from '#event-store/index.js';
import { PAST_MEMBERSHIP } from './past-membership.js';

describe('the lookups of past membership', () => {
  it.each(Object.entries(PAST_MEMBERSHIP))('%s is one both log stores index (same field, types within the index\'s)', (_, lookup) => {
    const index = INDEXED_LOOKUPS.find((candidate) => candidate.field === lookup.field);
    expect(index).toBeDefined();
    for (const type of lookup.types) expect(index!.types).toContain(type);
  });
});
