import type { Projection } from '#projections/runner/projection.js';
import { ALL_PROJECTIONS } from '#projections/index.js';
import { planMemoryReplay } from './memory-replays.js';

const projection = (name: string, handles: string[]): Projection => ({ name, handles, apply: async () => undefined });

describe('planMemoryReplay', () => {
  it('has an in-memory twin for every projection there is, applied to the events the projection handles', () => {
    expect(planMemoryReplay(ALL_PROJECTIONS).kind).toBe('memory');
    expect(ALL_PROJECTIONS.every((registered) => registered.twin !== undefined)).toBe(true);
  });

  it('falls back to the projections\' SQL for a projection without a twin', () => {
    expect(planMemoryReplay([...ALL_PROJECTIONS, projection('brand-new', ['X'])]))
      .toEqual({ kind: 'sql', reason: 'no in-memory replay for projection(s) brand-new' });
  });
});
