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
