import type { EventOwners } from '#placement/ledger/index.js';
import { revisionMarker } from '#placement/ledger/index.js';
import { streamOf } from '#placement/ledger/ledger-fixtures.js';
import { Access } from '../platform/policy/access.js';
import { visibleHoldings } from './judge-events.js';

/** A reader of project A: each consumer whose name starts with "a" is A's, every other one B's. */
const readerOfA = () => new Access('placement:ledger:resource_providers:history', (target) => target.project_id === 'A', 'A');
const owners = {
  holdersOf: async () => (_event: unknown, consumer: string) => ({ projectId: consumer.startsWith('a') ? 'A' : 'B', userId: null }),
} as unknown as EventOwners;

const holding = (...consumers: string[]) => ({
  type: 'ProviderAllocationsChanged', data: { consumers: Object.fromEntries(consumers.map((c) => [c, { VCPU: 1 }])), generation: 1 },
});
const many = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

describe('a provider\'s history as a reader sees it', () => {
  it('keeps the provider\'s own facts, narrows each change of holdings to the reader\'s consumers, and leaves out one with none', async () => {
    const events = streamOf('provider-p1', [{ type: 'InventoriesSet', data: { inventories: {}, generation: 1 } }, holding('a1', 'b1'), holding('b2')]);
    const access = readerOfA();
    const page = await visibleHoldings(access, owners, { events, nextMarker: null });
    expect(page.events.map((event) => [event.type, event.data.consumers])).toEqual([
      ['InventoriesSet', undefined], ['ProviderAllocationsChanged', { a1: { VCPU: 1 } }],
    ]);
    expect(page.nextMarker).toBeNull();
    expect(access.consulted).toBe(true);
  });

  it('ends a page early, its marker there, before an event would name more than a thousand consumers', async () => {
    const events = streamOf('provider-p1', [holding(...many('a', 600)), holding(...many('b', 300)), holding(...many('c', 200)), holding('a1')]);
    const page = await visibleHoldings(readerOfA(), owners, { events, nextMarker: 'next' });
    expect(page.events.map((event) => event.revision)).toEqual([0]);
    expect(page.nextMarker).toBe(revisionMarker(1));
    const within = await visibleHoldings(readerOfA(), owners, { events: events.slice(0, 2), nextMarker: 'next' });
    expect([within.events.length, within.nextMarker]).toEqual([1, 'next']);
  });

  it('shows a caller who sees every project\'s data the page as it is, with no owner looked up', async () => {
    const events = streamOf('provider-p1', [holding(...many('b', 1200)), holding('b1')]);
    const admin = new Access('placement:ledger:resource_providers:history', () => true, 'admin');
    const page = await visibleHoldings(admin, {} as EventOwners, { events, nextMarker: null });
    expect(page.events).toEqual(events);
  });
});
