import { byTransaction } from './replay.js';
import { MemoryReplaySet } from './memory/memory-replays.js';

const event = (commit: number, type: string) => ({ position: { commit: BigInt(commit), prepare: 0n }, type, stream: 's', revision: 0, data: {}, recordedAt: new Date(0) });

describe('replaying as the inline projector applied', () => {
  it('cuts the log into its writing transactions, in order', () => {
    const log = [event(1, 'A'), event(1, 'B'), event(2, 'A'), event(3, 'B'), event(3, 'A')];
    expect(byTransaction(log).map((group) => group.map((e) => `${e.position.commit}${e.type}`))).toEqual([['1A', '1B'], ['2A'], ['3B', '3A']]);
    expect(byTransaction([])).toEqual([]);
  });

  it('applies a transaction projection by projection, in their registered order', () => {
    const seen: string[] = [];
    const twinned = (name: string, handles: string[]) => ({
      name, handles, apply: async () => undefined, twin: { memory: 'core' as const, apply: (_state: unknown, e: { type: string }) => seen.push(`${name}:${e.type}`) },
    });
    const set = new MemoryReplaySet([twinned('first', ['B']), twinned('second', ['A', 'B'])]);
    set.applyTransaction([event(1, 'A'), event(1, 'B')]);
    expect(seen).toEqual(['first:B', 'second:A', 'second:B']);
  });
});
