import type { RecordedEvent } from '#event-store/index.js';
import { applyEvent } from '../candidates/index/apply-event.js';
import { NameCatalog } from '../candidates/index/name-catalog.js';
import { ProjectTally } from '../candidates/index/project-tally.js';
import { ProviderIndex } from '../candidates/index/provider-index.js';
import { projectUsage } from './project-usage.js';

const replaced = (consumer: string, project: string, allocations: object): RecordedEvent<any> => ({
  stream: `consumer-${consumer}`, type: 'ConsumerAllocationsReplaced', data: { project_id: project, allocations },
  revision: 0, position: { commit: 1n, prepare: 1n }, metadata: {}, recordedAt: new Date(0),
});
const removed = (consumer: string): RecordedEvent<any> => ({ ...replaced(consumer, '', {}), type: 'ConsumerRemoved', data: {} });

function usageAfter(events: RecordedEvent<any>[]) {
  const tally = new ProjectTally();
  for (const event of events) applyEvent(new ProviderIndex(), new NameCatalog(), event, tally);
  return projectUsage(tally).sort((a, b) => JSON.stringify(a.labels).localeCompare(JSON.stringify(b.labels)));
}

describe('projectUsage from the consumer streams', () => {
  it("sums every consumer's whole set under its project, per class, as GET /usages does", () => {
    expect(usageAfter([
      replaced('vm1', 'p1', { rp1: { VCPU: 2 }, rp2: { DISK_GB: 20 } }),
      replaced('vm2', 'p2', { rp1: { VCPU: 1, DISK_GB: 10 } }),
      replaced('vm3', 'p1', { rp2: { VCPU: 4 } }),
    ])).toEqual([
      { labels: { project_id: 'p1', resource_class: 'DISK_GB' }, used: 20 },
      { labels: { project_id: 'p1', resource_class: 'VCPU' }, used: 6 },
      { labels: { project_id: 'p2', resource_class: 'DISK_GB' }, used: 10 },
      { labels: { project_id: 'p2', resource_class: 'VCPU' }, used: 1 },
    ]);
  });

  it('follows a resize, a move to another project and a removal, and forgets what nobody holds', () => {
    expect(usageAfter([
      replaced('vm1', 'p1', { rp1: { VCPU: 2 } }),
      replaced('vm1', 'p1', { rp1: { VCPU: 3 } }),
      replaced('vm2', 'p1', { rp1: { DISK_GB: 5 } }),
      replaced('vm2', 'p2', { rp1: { DISK_GB: 5 } }),
      removed('vm1'),
    ])).toEqual([{ labels: { project_id: 'p2', resource_class: 'DISK_GB' }, used: 5 }]);
  });

  it("knows each holding consumer's project, after a move, and forgets a removed one", () => {
    const tally = new ProjectTally();
    for (const event of [replaced('vm1', 'p1', { rp1: { VCPU: 1 } }), replaced('vm1', 'p2', { rp1: { VCPU: 1 } }), replaced('vm2', 'p1', {}), removed('vm2')]) {
      applyEvent(new ProviderIndex(), new NameCatalog(), event, tally);
    }
    expect([tally.projectOf('vm1'), tally.projectOf('vm2'), tally.projectOf('vm3')]).toEqual(['p2', undefined, undefined]);
  });

  it('ignores consumer streams when no tally is kept (explain as_of)', () => {
    const index = new ProviderIndex();
    expect(() => applyEvent(index, new NameCatalog(), replaced('vm1', 'p1', { rp1: { VCPU: 1 } }))).not.toThrow();
    expect(index.size).toBe(0);
  });
});
