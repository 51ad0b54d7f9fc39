import { holdingOf, movesOf, scopesOf, seriesChanges } from './usage-series.js';

const RP1 = 'a0000000-0000-4000-8000-000000000001';
const RP2 = 'b0000000-0000-4000-8000-000000000002';
const alice = { projectId: 'p', userId: 'alice', consumerType: 'INSTANCE' };

describe('usage series', () => {
  it('sums a consumer\'s classes over its providers', () => {
    expect(holdingOf({ [RP1]: { VCPU: 2, DISK_GB: 10 }, [RP2]: { DISK_GB: 5 } })).toEqual({ VCPU: 2, DISK_GB: 15 });
    expect(holdingOf({})).toEqual({});
  });

  it('counts a consumer in the project, its user, its type, and its user and type; untyped as unknown', () => {
    expect(scopesOf(alice)).toEqual([['', ''], ['alice', ''], ['', 'INSTANCE'], ['alice', 'INSTANCE']]);
    expect(scopesOf({ ...alice, consumerType: null })).toEqual([['', ''], ['alice', ''], ['', 'unknown'], ['alice', 'unknown']]);
  });

  it('moves every series by the difference, leaving out series that do not move, in one lock order', () => {
    const changes = seriesChanges({ ...alice, holding: { VCPU: 2, DISK_GB: 10 } }, { ...alice, holding: { VCPU: 4, DISK_GB: 10 } });
    expect(changes).toEqual([
      { projectId: 'p', userId: '', consumerType: '', resourceClass: 'VCPU', delta: 2 },
      { projectId: 'p', userId: '', consumerType: 'INSTANCE', resourceClass: 'VCPU', delta: 2 },
      { projectId: 'p', userId: 'alice', consumerType: '', resourceClass: 'VCPU', delta: 2 },
      { projectId: 'p', userId: 'alice', consumerType: 'INSTANCE', resourceClass: 'VCPU', delta: 2 },
    ]);
  });

  it('takes the old holding out of the old series when a claim changes project, user or type', () => {
    const changes = seriesChanges({ ...alice, holding: { VCPU: 2 } }, { ...alice, userId: 'bob', holding: { VCPU: 2 } });
    expect(changes.map((c) => [c.userId, c.consumerType, c.delta])).toEqual([
      ['alice', '', -2], ['alice', 'INSTANCE', -2], ['bob', '', 2], ['bob', 'INSTANCE', 2],
    ]);
    const moved = seriesChanges({ ...alice, holding: { VCPU: 2 } }, { ...alice, projectId: 'q', holding: { VCPU: 2 } });
    expect(moved.filter((c) => c.userId === '' && c.consumerType === '').map((c) => [c.projectId, c.delta])).toEqual([['p', -2], ['q', 2]]);
  });

  it('releases everything on removal and claims everything on a first claim', () => {
    expect(seriesChanges({ ...alice, holding: { VCPU: 2 } }, null).map((c) => c.delta)).toEqual([-2, -2, -2, -2]);
    expect(seriesChanges(null, { ...alice, holding: { MEMORY_MB: 512 } }).map((c) => c.delta)).toEqual([512, 512, 512, 512]);
    expect(seriesChanges(null, { ...alice, holding: {} })).toEqual([]);
  });

  it('records one move per claimant, two when the claim changes hands, with the classes that moved', () => {
    expect(movesOf({ ...alice, holding: { VCPU: 2, DISK_GB: 10 } }, { ...alice, holding: { VCPU: 4, DISK_GB: 10 } }))
      .toEqual([{ projectId: 'p', userId: 'alice', consumerType: 'INSTANCE', deltas: { VCPU: 2 } }]);
    expect(movesOf({ ...alice, holding: { VCPU: 2 } }, { ...alice, userId: 'bob', consumerType: null, holding: { VCPU: 2 } })).toEqual([
      { projectId: 'p', userId: 'alice', consumerType: 'INSTANCE', deltas: { VCPU: -2 } },
      { projectId: 'p', userId: 'bob', consumerType: 'unknown', deltas: { VCPU: 2 } },
    ]);
    expect(movesOf({ ...alice, holding: { VCPU: 2 } }, null)).toEqual([{ ...alice, deltas: { VCPU: -2 } }]);
    expect(movesOf({ ...alice, holding: { VCPU: 2 } }, { ...alice, holding: { VCPU: 2 } })).toEqual([]);
  });

  it('moves each series by the sum of the moves of the claimants it counts', () => {
    const before = { ...alice, holding: { VCPU: 2, MEMORY_MB: 512 } };
    for (const after of [{ ...alice, userId: 'bob', holding: { VCPU: 3 } }, { ...alice, projectId: 'q', holding: { VCPU: 2 } }, null]) {
      const moves = movesOf(before, after);
      for (const change of seriesChanges(before, after)) {
        const counted = moves.filter((m) => m.projectId === change.projectId && (change.userId === '' || m.userId === change.userId)
          && (change.consumerType === '' || m.consumerType === change.consumerType));
        expect(counted.reduce((sum, m) => sum + (m.deltas[change.resourceClass] ?? 0), 0)).toBe(change.delta);
      }
    }
  });
});
