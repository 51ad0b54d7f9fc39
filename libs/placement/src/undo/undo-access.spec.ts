import type { ProviderState } from '#domain/index.js';
import type { ConsumerState } from '#domain/consumer/index.js';
import type { EventOwner } from '../ledger/event-owners.js';
import { judgeScope, judgeTargets, UndoAccess } from './undo-access.js';
import type { Targets } from './undo-facts.js';

const held = (projectId: string): ConsumerState => ({
  status: 'active', projectId, userId: `user-${projectId}`, consumerType: 'INSTANCE', generation: 1, allocations: {},
});
const ABSENT: ConsumerState = { status: 'absent' };

/** A caller who may act for project A alone: what it is asked about, and a refusal for anything else. */
function projectA(): UndoAccess & { asked: (string | null)[] } {
  const asked: (string | null)[] = [];
  return {
    asked,
    require(owner: EventOwner | null) {
      asked.push(owner?.projectId ?? null);
      if (owner?.projectId !== 'A') throw new Error('403');
    },
  };
}

const targets = (consumers: Record<string, ConsumerState>, providers: string[] = []): Targets => ({
  consumers: new Map(Object.entries(consumers)),
  providers: new Map(providers.map((uuid) => [uuid, { status: 'absent' } as unknown as ProviderState])),
});

describe('judging what an undo takes back', () => {
  it('asks about each consumer\'s owner now and then, and lets a caller take back its own project\'s', () => {
    const access = projectA();
    judgeTargets(access, targets({ c1: held('A'), c2: ABSENT }), { c1: held('A'), c2: held('A') });
    expect(access.asked).toEqual(['A', 'A', 'A']);
  });

  it('refuses a consumer another project holds now or held then', () => {
    expect(() => judgeTargets(projectA(), targets({ c: held('A') }), { c: held('B') })).toThrow('403');
    expect(() => judgeTargets(projectA(), targets({ c: held('B') }), { c: held('A') })).toThrow('403');
    expect(() => judgeTargets(projectA(), targets({ c: held('B') }), { c: ABSENT })).toThrow('403');
  });

  it('leaves providers, a consumer nobody holds either way and an undo of no consumer to who may act for every project', () => {
    expect(() => judgeTargets(projectA(), targets({ c: held('A') }, ['rp']), { c: held('A') })).toThrow('403');
    expect(() => judgeTargets(projectA(), targets({ c: ABSENT }), { c: ABSENT })).toThrow('403');
    const nothing = projectA();
    expect(() => judgeTargets(nothing, targets({}), {})).toThrow('403');
    expect(nothing.asked).toEqual([null]);
  });

  it('refuses a restore naming providers or aggregates before resolving it, and lets one naming consumers or projects through to be judged', () => {
    const scope = { providers: [], tree: false, withConsumers: true, consumers: [], projects: [], aggregates: [] };
    expect(() => judgeScope(projectA(), { ...scope, providers: ['rp'] })).toThrow('403');
    expect(() => judgeScope(projectA(), { ...scope, aggregates: ['agg'] })).toThrow('403');
    const access = projectA();
    judgeScope(access, { ...scope, consumers: ['c'], projects: ['B'] });
    expect(access.asked).toEqual([]);
  });
});
