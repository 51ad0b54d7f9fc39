import type { ProviderState } from '#domain/index.js';
import type { ConsumerState } from '#domain/consumer/index.js';
import { heldBy, projectAOnly } from '../shared/owner-access-fixtures.js';
import { judgeScope, judgeTargets } from './undo-access.js';
import type { Targets } from './undo-facts.js';

const ABSENT: ConsumerState = { status: 'absent' };

const targets = (consumers: Record<string, ConsumerState>, providers: string[] = []): Targets => ({
  consumers: new Map(Object.entries(consumers)),
  providers: new Map(providers.map((uuid) => [uuid, { status: 'absent' } as unknown as ProviderState])),
});

describe('judging what an undo takes back', () => {
  it('asks about each consumer\'s owner now and then, and lets a caller take back its own project\'s', () => {
    const access = projectAOnly();
    judgeTargets(access, targets({ c1: heldBy('A'), c2: ABSENT }), { c1: heldBy('A'), c2: heldBy('A') });
    expect(access.asked).toEqual(['A', 'A', 'A']);
  });

  it('refuses a consumer another project holds now or held then', () => {
    expect(() => judgeTargets(projectAOnly(), targets({ c: heldBy('A') }), { c: heldBy('B') })).toThrow('403');
    expect(() => judgeTargets(projectAOnly(), targets({ c: heldBy('B') }), { c: heldBy('A') })).toThrow('403');
    expect(() => judgeTargets(projectAOnly(), targets({ c: heldBy('B') }), { c: ABSENT })).toThrow('403');
  });

  it('leaves providers, a consumer nobody holds either way and an undo of no consumer to who may act for every project', () => {
    expect(() => judgeTargets(projectAOnly(), targets({ c: heldBy('A') }, ['rp']), { c: heldBy('A') })).toThrow('403');
    expect(() => judgeTargets(projectAOnly(), targets({ c: ABSENT }), { c: ABSENT })).toThrow('403');
    const nothing = projectAOnly();
    expect(() => judgeTargets(nothing, targets({}), {})).toThrow('403');
    expect(nothing.asked).toEqual([null]);
  });

  it('refuses a restore naming providers or aggregates before resolving it, and lets one naming consumers or projects through to be judged', () => {
    const scope = { providers: [], tree: false, withConsumers: true, consumers: [], projects: [], aggregates: [] };
    expect(() => judgeScope(projectAOnly(), { ...scope, providers: ['rp'] })).toThrow('403');
    expect(() => judgeScope(projectAOnly(), { ...scope, aggregates: ['agg'] })).toThrow('403');
    const access = projectAOnly();
    judgeScope(access, { ...scope, consumers: ['c'], projects: ['B'] });
    expect(access.asked).toEqual([]);
  });
});
