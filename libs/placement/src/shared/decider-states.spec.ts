import { EventStore, WrongExpectedRevision } from '#event-store/index.js';
import { CommandRunner } from './command-runner.js';
import { DeciderStates } from './decider-states.js';

const CALLER = { requestId: 'req-1', userId: 'u', projectId: 'p', roles: ['admin'] };
// The state is the revision of the last event read: what the cache holds shows as the state.
const REVISIONS = { initialState: () => -1, evolve: (_: number, event: { data: { revision: number } }) => event.data.revision };

describe('DeciderStates.load: a cache ahead of the log', () => {
  it('is dropped when a lost race finds no newer event (the log lost commits this process read: a failover)', async () => {
    // The log held revisions 0..2, then lost 2 (a standby promoted without it).
    let log = [0, 1, 2];
    const store = {
      readStream: async (_: string, from: number) => log.filter((r) => r >= from).map((revision) => ({ revision, type: 'X', data: { revision } })),
      append: async (requests: Array<{ expectedRevision: number }>) => {
        if (requests[0].expectedRevision !== log.length - 1) throw new WrongExpectedRevision('provider-1', requests[0].expectedRevision);
        log = [...log, log.length];
        return { position: { commit: 1n, prepare: 1n }, revisions: { 'provider-1': log.length - 1 } };
      },
    } as unknown as EventStore;
    const states = new DeciderStates(store);
    expect((await states.load('provider-1', REVISIONS)).revision).toBe(2);
    log = [0, 1];
    const outcome = await new CommandRunner(store, states).run(CALLER, async (attempt) => {
      const revision = await attempt.load('provider-1', REVISIONS);
      attempt.write('provider-1', [{ type: 'X', data: {} }]);
      return revision;
    });
    expect(outcome).toBe(1);
    expect(log).toEqual([0, 1, 2]);
  });
});

describe('DeciderStates: what appends on their way will leave', () => {
  const store = { readStream: async () => [{ revision: 0, type: 'X', data: { revision: 0 } }] } as unknown as EventStore;
  const appending = new Promise<never>(() => undefined);

  it('is guessed before what was last read, until the append is answered, and never read by a load', async () => {
    const states = new DeciderStates(store);
    await states.load('provider-1', REVISIONS);
    const withdraw = states.anticipate('provider-1', 1, 1, appending);
    expect(states.cached('provider-1')).toEqual({ revision: 1, state: 1, appending });
    expect(await states.load('provider-1', REVISIONS)).toEqual({ revision: 0, state: 0 });
    withdraw();
    expect(states.cached('provider-1')).toEqual({ revision: 0, state: 0 });
  });

  it("is withdrawn only by its own append: a later one's stays", () => {
    const states = new DeciderStates(store);
    const first = states.anticipate('provider-1', 1, 1, appending);
    states.anticipate('provider-1', 2, 2, appending);
    first();
    expect(states.cached('provider-1')?.revision).toBe(2);
  });

  it("lets a race lost by an append expecting more than was written leave the stream's guesses alone", async () => {
    const states = new DeciderStates(store);
    await states.load('provider-1', REVISIONS);
    // It followed an append still on its way: that one's own answer tells whether the stream moved.
    states.contest('provider-1', 1);
    expect(states.cached('provider-1')?.revision).toBe(0);
    // One expecting what this process had read lost to another writer: no guess until read again.
    states.contest('provider-1', 0);
    expect(states.cached('provider-1')).toBeUndefined();
  });
});
