import { LogPosition, RecordedEvent } from '#event-store/index.js';
import type { Projection } from '../projection.js';
import { planBatch, resumePosition } from './batch-plan.js';

const at = (commit: number, prepare: number): LogPosition => ({ commit: BigInt(commit), prepare: BigInt(prepare) });
const event = (type: string, position: LogPosition): RecordedEvent =>
  ({ stream: 's', revision: 0, position, type, data: {}, metadata: {}, recordedAt: new Date(0) });
const projection = (name: string, handles: string[]): Projection => ({ name, handles, apply: async () => undefined });

const providers = projection('providers', ['ProviderCreated', 'InventorySet']);
const allocations = projection('allocations', ['AllocationsClaimed']);

describe('planBatch', () => {
  const events = [
    event('ProviderCreated', at(10, 1)),
    event('AllocationsClaimed', at(10, 2)),
    event('InventorySet', at(12, 3)),
  ];

  it('gives each projection the events it handles, in order, and advances to the last event', () => {
    const plan = planBatch([providers, allocations], new Map(), events);
    expect(plan.work.map((w) => [w.projection.name, w.events.map((e) => e.type)])).toEqual([
      ['providers', ['ProviderCreated', 'InventorySet']],
      ['allocations', ['AllocationsClaimed']],
    ]);
    expect(plan.advanceTo).toEqual(at(12, 3));
  });

  it('never applies an event at or before a projection’s own checkpoint (exactly once after a takeover)', () => {
    const checkpoints = new Map([['providers', at(10, 1)], ['allocations', at(12, 3)]]);
    const plan = planBatch([providers, allocations], checkpoints, events);
    expect(plan.work.map((w) => [w.projection.name, w.events.map((e) => e.position)])).toEqual([['providers', [at(12, 3)]]]);
  });

  it('orders by transaction first: a smaller sequence in a later transaction is still after', () => {
    const plan = planBatch([providers], new Map([['providers', at(10, 50)]]), [event('InventorySet', at(11, 2))]);
    expect(plan.work[0].events).toHaveLength(1);
  });

  it('does nothing and moves no checkpoint for an empty batch', () => {
    expect(planBatch([providers], new Map(), [])).toEqual({ work: [], advanceTo: undefined });
  });
});

describe('resumePosition', () => {
  it('resumes from the checkpoint furthest behind', () => {
    expect(resumePosition(new Map([['a', at(9, 1)], ['b', at(8, 7)], ['c', at(8, 9)]]))).toEqual(at(8, 7));
  });

  it('starts from the beginning when there are no checkpoints', () => {
    expect(resumePosition(new Map())).toEqual(at(0, 0));
  });
});
