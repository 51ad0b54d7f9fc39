import { allocationRequestsIn } from './wide.js';

describe('the wide tree\'s answer, counted', () => {
  it('counts the allocation requests of ours and of upstream\'s spacing as parsing the answer would', () => {
    const answer = {
      allocation_requests: Array.from({ length: 3 }, (_v, i) => ({ allocations: { [`pci${i}`]: { resources: { PCI_DEVICE: 1 } } }, mappings: { 1: [`pci${i}`] } })),
      provider_summaries: { pci0: { resources: { PCI_DEVICE: { capacity: 1, used: 0 } }, traits: [] } },
    };
    for (const body of [JSON.stringify(answer), JSON.stringify(answer, null, 1).replace(/\n\s*/g, ' ')]) {
      expect(allocationRequestsIn(body)).toBe(JSON.parse(body).allocation_requests.length);
    }
    expect(allocationRequestsIn('{"allocation_requests": [], "provider_summaries": {}}')).toBe(0);
  });
});
