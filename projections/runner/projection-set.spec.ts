import { LogPosition, RecordedEvent } from '#event-store/index.js';
import type { Projection } from './projection.js';
import { ProjectionSet } from './projection-set.js';
import { resumePosition } from './async/resume-position.js';

const at = (commit: number, prepare: number): LogPosition => ({ commit: BigInt(commit), prepare: BigInt(prepare) });
const event = (type: string, position: LogPosition): RecordedEvent =>
  ({ stream: 's', revision: 0, position, type, data: {}, metadata: {}, recordedAt: new Date(0) });
const projection = (name: string, handles: string[]): Projection => ({ name, handles, apply: async () => undefined });

const providers = projection('providers', ['ProviderCreated', 'InventorySet']);
const allocations = projection('allocations', ['AllocationsClaimed']);
const handled = (set: ProjectionSet<Projection>, events: RecordedEvent[], checkpoints?: Map<string, LogPosition>) =>
  [...set.handled(events, checkpoints)].map(([p, e]) => [p.name, e.type, e.position]);

describe('a set of projections', () => {
  const set = new ProjectionSet([providers, allocations]);
  const events = [
    event('ProviderCreated', at(10, 1)),
    event('AllocationsClaimed', at(10, 2)),
    event('InventorySet', at(12, 3)),
  ];

  it('gives each projection the events it handles, projection by projection in the registered order', () => {
    expect(handled(set, events)).toEqual([
      ['providers', 'ProviderCreated', at(10, 1)], ['providers', 'InventorySet', at(12, 3)], ['allocations', 'AllocationsClaimed', at(10, 2)],
    ]);
    expect(set.names).toEqual(['providers', 'allocations']);
  });

  it('never gives an event at or before a projection\u2019s own checkpoint (exactly once after a takeover)', () => {
    const checkpoints = new Map([['providers', at(10, 1)], ['allocations', at(12, 3)]]);
    expect(handled(set, events, checkpoints)).toEqual([['providers', 'InventorySet', at(12, 3)]]);
  });

  it('orders by transaction first: a smaller sequence in a later transaction is still after', () => {
    expect(handled(new ProjectionSet([providers]), [event('InventorySet', at(11, 2))], new Map([['providers', at(10, 50)]]))).toHaveLength(1);
  });

  it('gives nothing for no events', () => {
    expect(handled(set, [])).toEqual([]);
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
