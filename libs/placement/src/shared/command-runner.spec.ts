import { KurrentEventStore } from '#event-store/kurrent/kurrent-event-store.js';
import { InMemoryKurrentClient } from '#event-store/kurrent/testing/in-memory-kurrent-client.js';
import { EventStore, WrongExpectedRevision } from '#event-store/index.js';
import { conflict } from '#domain/index.js';
import { Attempt } from './attempt.js';
import { CommandRunner, MAX_ATTEMPTS } from './command-runner.js';
import { DeciderStates } from './decider-states.js';

// A counter per stream: the smallest decider that shows what the runner does around one.
const COUNTER = { initialState: () => 0, evolve: (n: number) => n + 1 };
const ticked = (n: number) => ({ type: 'Ticked', data: { n } });
const CALLER = { requestId: 'req-1', userId: 'u', projectId: 'p', roles: ['admin'] };

describe('CommandRunner', () => {
  let client: InMemoryKurrentClient;
  let store: KurrentEventStore;
  let runner: CommandRunner;

  beforeEach(() => {
    client = new InMemoryKurrentClient();
    store = new KurrentEventStore(client);
    runner = new CommandRunner(store, new DeciderStates(store));
  });

  it('appends what one attempt decided over every stream at once, with who asked in the metadata', async () => {
    const outcome = await runner.run(CALLER, async (attempt) => {
      const a = await attempt.load('counter-a', COUNTER);
      const b = await attempt.load('counter-b', COUNTER);
      attempt.write('counter-a', [ticked(a)]);
      attempt.write('counter-b', [ticked(b), ticked(b + 1)]);
      return 'done';
    }, { metadata: { operation: 'test' } });
    expect(outcome).toBe('done');
    expect(client.sessions).toBe(1);
    expect((await store.readStream('counter-b')).map((e) => e.data)).toEqual([{ n: 0 }, { n: 1 }]);
    expect((await store.readStream('counter-a'))[0].metadata).toMatchObject({ requestId: 'req-1', operation: 'test' });
  });

  it('decides again on fresher state when another writer got there first, without a sleep', async () => {
    let attempts = 0;
    await runner.run(CALLER, async (attempt) => {
      const n = await attempt.load('counter-a', COUNTER);
      // The first attempt loses the race: someone appends between its load and its append.
      if (++attempts === 1) await store.append([{ stream: 'counter-a', expectedRevision: 'any', events: [ticked(99)] }]);
      attempt.write('counter-a', [ticked(n)]);
    });
    expect(attempts).toBe(2);
    expect((await store.readStream('counter-a')).map((e) => e.data)).toEqual([{ n: 99 }, { n: 1 }]);
  });

  it('decides its first attempt on preloaded state without reading it again, and reads afresh once that state lost a race', async () => {
    const states = new DeciderStates(store);
    runner = new CommandRunner(store, states);
    await store.append([{ stream: 'counter-a', expectedRevision: 'any', events: [ticked(0)] }]);
    const preloaded = new Map([['counter-a', await states.load('counter-a', COUNTER)]]);
    // Someone else writes after the preload: the first attempt decides on 1, its append fails, the second reads 2.
    await store.append([{ stream: 'counter-a', expectedRevision: 'any', events: [ticked(1)] }]);
    const reads = jest.spyOn(store, 'readStream');
    const seen: number[] = [];
    await runner.run(CALLER, async (attempt) => {
      const n = await attempt.load('counter-a', COUNTER);
      seen.push(n);
      attempt.write('counter-a', [ticked(n)]);
    }, { preloaded });
    expect(seen).toEqual([1, 2]);
    expect(reads).toHaveBeenCalledTimes(1);
    expect((await store.readStream('counter-a')).map((e) => e.data)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
  });

  it('refuses, or writes nothing, only on freshly read state, never on preloaded state alone', async () => {
    await store.append([{ stream: 'counter-a', expectedRevision: 'any', events: [ticked(0)] }]);
    const preloaded = () => new Map([['counter-a', { state: 0, revision: -1 }]]);
    const refusal = runner.run(CALLER, async (attempt) => {
      if ((await attempt.load('counter-a', COUNTER)) === 0) throw conflict('stale');
      return 'fresh';
    }, { preloaded: preloaded() });
    await expect(refusal).resolves.toBe('fresh');
    const nothing = await runner.run(CALLER, async (attempt) => String(await attempt.load('counter-a', COUNTER)), { preloaded: preloaded() });
    expect(nothing).toBe('1');
  });

  it('decides the next command on what its own append left, without reading it back, and reads once another writer moved on', async () => {
    const tick = () => runner.run(CALLER, async (attempt) => {
      const n = await attempt.load('counter-a', COUNTER);
      attempt.write('counter-a', [ticked(n)]);
      return n;
    });
    const reads = jest.spyOn(store, 'readStream');
    expect(await tick()).toBe(0);
    expect(await tick()).toBe(1);
    expect(reads).toHaveBeenCalledTimes(1);
    // Someone else writes: the guess fails the append's check, and the command is decided again on a read.
    await store.append([{ stream: 'counter-a', expectedRevision: 'any', events: [ticked(99)] }]);
    expect(await tick()).toBe(3);
    expect(reads).toHaveBeenCalledTimes(2);
    expect((await store.readStream('counter-a')).map((e) => e.data)).toEqual([{ n: 0 }, { n: 1 }, { n: 99 }, { n: 3 }]);
  });

  it('decides again on read state when its decision rests on a guessed stream it does not write (no append checks it)', async () => {
    const tick = () => runner.run(CALLER, async (attempt) => {
      attempt.write('counter-a', [ticked(await attempt.load('counter-a', COUNTER))]);
    });
    await runner.run(CALLER, async (attempt) => {
      attempt.write('counter-parent', [ticked(await attempt.load('counter-parent', COUNTER))]);
    });
    await tick();
    // Another process moves the parent on: this process's guess of it is stale, and writing only
    // counter-a would never find out. The command reads both instead of deciding on the guess.
    await store.append([{ stream: 'counter-parent', expectedRevision: 'any', events: [ticked(7)] }]);
    const reads = jest.spyOn(store, 'readStream');
    const seen: string[] = [];
    await runner.run(CALLER, async (attempt) => {
      seen.push(`parent at ${await attempt.load('counter-parent', COUNTER)}`);
      attempt.write('counter-a', [ticked(await attempt.load('counter-a', COUNTER))]);
    });
    expect(seen).toEqual(['parent at 1', 'parent at 2']);
    expect(reads.mock.calls.map(([stream]) => stream)).toContain('counter-parent');
  });

  it('counts a guessed stream written with no events as unchecked: the append does not carry it', async () => {
    await runner.run(CALLER, async (attempt) => {
      attempt.write('counter-parent', [ticked(await attempt.load('counter-parent', COUNTER))]);
    });
    await store.append([{ stream: 'counter-parent', expectedRevision: 'any', events: [ticked(7)] }]);
    const seen: number[] = [];
    await runner.run(CALLER, async (attempt) => {
      const parent = await attempt.load('counter-parent', COUNTER);
      seen.push(parent);
      attempt.write('counter-parent', []);
      attempt.write('counter-a', [ticked(await attempt.load('counter-a', COUNTER))]);
    }, { presumedNew: (stream) => stream === 'counter-a' });
    expect(seen).toEqual([1, 2]);
  });

  it('lets commands that share a stream in `turns` take turns in this process instead of racing in the log', async () => {
    const appends = jest.spyOn(store, 'append');
    const tick = (turns?: string[]) => runner.run(CALLER, async (attempt) => {
      const n = await attempt.load('counter-a', COUNTER);
      await new Promise((resolve) => setImmediate(resolve));
      attempt.write('counter-a', [ticked(n)]);
    }, { turns });
    await Promise.all([tick(), tick()]);
    expect(appends).toHaveBeenCalledTimes(3);
    appends.mockClear();
    await Promise.all([tick(['counter-a']), tick(['counter-a'])]);
    expect(appends).toHaveBeenCalledTimes(2);
    expect((await store.readStream('counter-a')).map((e) => e.data)).toEqual([0, 1, 2, 3].map((n) => ({ n })));
  });

  /** Holds every append of the store until the gate opens. */
  const gateAppends = () => {
    const original = store.append.bind(store);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    jest.spyOn(store, 'append').mockImplementation(async (requests) => {
      await gate;
      return original(requests);
    });
    return open;
  };
  const tickAs = (name: string, seen: string[]) => runner.run(CALLER, async (attempt) => {
    const n = await attempt.load('counter-a', COUNTER);
    seen.push(`${name} ${n}`);
    attempt.write('counter-a', [{ type: 'Ticked', data: { n, by: name } }]);
  }, { turns: ['counter-a'], presumedNew: () => true });

  it('lets the next command in turn decide on what the append on its way will leave, without reading it', async () => {
    const open = gateAppends();
    const reads = jest.spyOn(store, 'readStream');
    const seen: string[] = [];
    const both = Promise.all([tickAs('first', seen), tickAs('second', seen)]);
    await new Promise((resolve) => setImmediate(resolve));
    // The second decided while the first's append was still on its way.
    expect(seen).toEqual(['first 0', 'second 1']);
    open();
    await both;
    expect(reads).not.toHaveBeenCalled();
    expect((await store.readStream('counter-a')).map((e) => e.data)).toEqual([{ n: 0, by: 'first' }, { n: 1, by: 'second' }]);
  });

  it('decides the next command again, once the first is answered, when the append it rested on is refused', async () => {
    await tickAs('before', []);
    // Another process takes revision 1, the one the first command will expect to write.
    await store.append([{ stream: 'counter-a', expectedRevision: 'any', events: [ticked(99)] }]);
    const open = gateAppends();
    const seen: string[] = [];
    const both = Promise.all([tickAs('first', seen), tickAs('second', seen)]);
    await new Promise((resolve) => setImmediate(resolve));
    open();
    await both;
    // The second's append expects revision 1, where the other writer's event is: its own check
    // would pass. It rested on the first's refused append, so it is decided again, not written on 99.
    expect(seen).toEqual(['first 1', 'second 2', 'first 2', 'second 3']);
    expect((await store.readStream('counter-a')).map((e) => e.data)).toEqual([{ n: 0, by: 'before' }, { n: 99 }, { n: 2, by: 'first' }, { n: 3, by: 'second' }]);
  });

  it('reads before deciding once its guesses are stale too often (another process writes the same streams)', async () => {
    const tick = () => runner.run(CALLER, async (attempt) => {
      attempt.write('counter-a', [ticked(await attempt.load('counter-a', COUNTER))]);
    });
    const elsewhere = () => store.append([{ stream: 'counter-a', expectedRevision: 'any', events: [ticked(-1)] }]);
    await tick();
    for (let i = 0; i < 10; i++) {
      await elsewhere();
      await tick();
    }
    const appends = jest.spyOn(store, 'append');
    await elsewhere();
    await tick();
    // The other writer's append and this command's one: no refused guess in between.
    expect(appends).toHaveBeenCalledTimes(2);
  });

  it('takes a stream presumed new for absent without reading it, and decides again on the log when it exists', async () => {
    const reads = jest.spyOn(store, 'readStream');
    const create = (stream: string) => runner.run(CALLER, async (attempt) => {
      const n = await attempt.load(stream, COUNTER);
      attempt.write(stream, [ticked(n)]);
      return n;
    }, { presumedNew: () => true });
    expect(await create('counter-new')).toBe(0);
    expect(reads).not.toHaveBeenCalled();
    await store.append([{ stream: 'counter-old', expectedRevision: 'any', events: [ticked(0)] }]);
    expect(await create('counter-old')).toBe(1);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('gives up after the bounded number of attempts with the internal conflict', async () => {
    let attempts = 0;
    const losing = runner.run(CALLER, async (attempt) => {
      const n = await attempt.load('counter-a', COUNTER);
      attempts++;
      await store.append([{ stream: 'counter-a', expectedRevision: 'any', events: [ticked(-1)] }]);
      attempt.write('counter-a', [ticked(n)]);
    }, { attempts: 3 });
    await expect(losing).rejects.toBeInstanceOf(WrongExpectedRevision);
    expect(attempts).toBe(3);
  });

  it("never retries the decider's own refusal (a client's stale generation is a 409 at once)", async () => {
    let attempts = 0;
    const refused = runner.run(CALLER, async (attempt) => {
      await attempt.load('counter-a', COUNTER);
      attempts++;
      throw conflict('generation mismatch');
    });
    await expect(refused).rejects.toMatchObject({ kind: 'conflict' });
    expect(attempts).toBe(1);
  });

  it('appends nothing when nothing was decided, and refuses a write to a stream it did not load', async () => {
    expect(await runner.run(CALLER, async (attempt) => attempt.load('counter-a', COUNTER))).toBe(0);
    expect(client.sessions).toBe(0);
    await expect(runner.run(CALLER, async (attempt) => attempt.write('counter-z', [ticked(0)]))).rejects.toThrow(/without having been loaded/);
  });

  it('answers one state per stream within an attempt, the one its append expects', async () => {
    const seen: number[][] = [];
    await runner.run(CALLER, async (attempt) => {
      const first = await attempt.load('counter-a', COUNTER);
      if (seen.length === 0) await store.append([{ stream: 'counter-a', expectedRevision: 'any', events: [ticked(7)] }]);
      const again = await attempt.load('counter-a', COUNTER);
      seen.push([first, again]);
      attempt.write('counter-a', [ticked(again)]);
    });
    // The first attempt decided on 0 twice and lost to the append it saw nothing of; the second on 1.
    expect(seen).toEqual([[0, 0], [1, 1]]);
  });
});

/** A log where another writer always wins: every append loses the race. */
function alwaysRacing(): { store: EventStore; appends: () => number } {
  let appends = 0;
  const store = {
    readStream: async () => [],
    append: async () => { appends++; throw new WrongExpectedRevision('consumer-1', 0); },
  } as unknown as EventStore;
  return { store, appends: () => appends };
}

const racingRunner = (store: EventStore) => new CommandRunner(store, new DeciderStates(store));
const claimOne = async (attempt: Attempt) => {
  attempt.write('consumer-1', [ticked(await attempt.load('consumer-1', COUNTER))]);
};

describe('CommandRunner: bounded attempts against racing writers', () => {
  it('decides again up to `attempts` times (allocation_conflict_retry_count), then gives up', async () => {
    const racing = alwaysRacing();
    await expect(racingRunner(racing.store).run(CALLER, claimOne, { attempts: 3 })).rejects.toBeInstanceOf(WrongExpectedRevision);
    expect(racing.appends()).toBe(3);
  });

  it('tries 10 times by default, as upstream', async () => {
    const racing = alwaysRacing();
    await expect(racingRunner(racing.store).run(CALLER, claimOne)).rejects.toBeInstanceOf(WrongExpectedRevision);
    expect(racing.appends()).toBe(MAX_ATTEMPTS);
    expect(MAX_ATTEMPTS).toBe(10);
  });
});
