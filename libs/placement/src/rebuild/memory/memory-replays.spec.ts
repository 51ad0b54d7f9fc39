import type { Projection } from '#projections/runner/projection.js';
import { ALL_PROJECTIONS } from '#projections/index.js';
import { planMemoryReplay } from './memory-replays.js';

const projection = (name: string, handles: string[]): Projection => ({ name, handles, apply: async () => undefined });

describe('planMemoryReplay', () => {
  it('has an in-memory twin for every projection there is, handling the same events', () => {
    expect(planMemoryReplay(ALL_PROJECTIONS).kind).toBe('memory');
  });

  it('falls back to the projections\' SQL for a projection without a twin, or one whose events changed', () => {
    expect(planMemoryReplay([...ALL_PROJECTIONS, projection('brand-new', ['X'])]))
      .toEqual({ kind: 'sql', reason: 'no in-memory replay for projection(s) brand-new' });
    expect(planMemoryReplay([projection('traits', ['TraitCreated', 'TraitDeleted', 'TraitRenamed'])]).kind).toBe('sql');
  });
});
