import { Inject, Injectable, Optional } from '@nestjs/common';
import { AppendResult, EVENT_STORE, EventStore, ExpectedRevision } from '#event-store/index.js';

/** How a stream type's state is rebuilt from its events: the evolve and initial state of its decider. */
export interface StreamType<State, Event> {
  readonly evolve: (state: State, event: Event) => State;
  readonly initialState: () => State;
}

export interface Loaded<State> {
  readonly state: State;
  /** -1 when the stream does not exist. */
  readonly revision: number;
  /** Set when the state is what an append still on its way will leave (DeciderStates.anticipate). */
  readonly appending?: Promise<AppendResult>;
}

/** How the log gives event data back (PostgreSQL's jsonb orders keys); JSON's own form when not provided. */
export const STORED_FORM = Symbol('STORED_FORM');
export const jsonForm = (data: unknown): unknown => JSON.parse(JSON.stringify(data ?? null));

/**
 * Decider states by stream, cached at the revision they were read or written at: a load reads only
 * the newer events. The cache only reads; the CommandRunner appends and tells it what it learned.
 */
@Injectable()
export class DeciderStates {
  private readonly cache = new Map<string, Loaded<unknown>>();
  /** Streams whose append lost a race: their next load must find newer events. */
  private readonly contested = new Set<string>();
  /** What appends on their way will leave, until they are answered (never read by load: not yet in the log). */
  private readonly pending = new Map<string, Loaded<unknown>>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Optional() @Inject(STORED_FORM) readonly storedForm: (data: unknown) => unknown = jsonForm,
  ) {}

  async load<State, Event>(stream: string, type: StreamType<State, Event>): Promise<Loaded<State>> {
    const cached = this.cache.get(stream) as Loaded<State> | undefined;
    let state = cached?.state ?? type.initialState();
    let revision = cached?.revision ?? -1;
    let newer = await this.store.readStream(stream, revision + 1);
    if (this.contested.delete(stream) && cached && newer.length === 0) {
      // A race lost to nobody: the log is behind this cache (a failover onto a standby that never
      // got a commit this process read), so the cache is dropped rather than conflict forever.
      state = type.initialState();
      revision = -1;
      newer = await this.store.readStream(stream, 0);
      this.cache.delete(stream);
    }
    for (const event of newer) {
      state = type.evolve(state, { type: event.type, data: event.data } as Event);
      revision = event.revision;
    }
    if (newer.length > 0 || !cached) this.cache.set(stream, { revision, state });
    return { state, revision };
  }

  /**
   * The state this process last knew the stream at (its own appends included), without reading:
   * a guess the append checks. None for a stream that lost a race since, or was never seen.
   */
  cached<State>(stream: string): Loaded<State> | undefined {
    if (this.contested.has(stream)) return undefined;
    const cached = this.cache.get(stream);
    const pending = this.pending.get(stream);
    return (pending && (!cached || pending.revision > cached.revision) ? pending : cached) as Loaded<State> | undefined;
  }

  /**
   * The state a stream will be in once an append on its way is written, guessed by commands that
   * follow it (CommandRunner), whose appends are then written only if it is (EventStore.appendAfter).
   * Withdrawn when the append is answered, after `remember` of what it wrote.
   */
  anticipate(stream: string, revision: number, state: unknown, appending: Promise<AppendResult>): () => void {
    const mine = { revision, state, appending };
    this.pending.set(stream, mine);
    return () => {
      if (this.pending.get(stream) === mine) this.pending.delete(stream);
    };
  }

  /** The state a stream is in after this process's append, so the next command need not read its own write back. */
  remember(stream: string, revision: number, state: unknown): void {
    const cached = this.cache.get(stream);
    // Another command may have read the stream further meanwhile: the cache only moves forward.
    if (!cached || cached.revision < revision) this.cache.set(stream, { revision, state });
  }

  /**
   * An append to the stream lost a race: no guess from it until a load has found the newer events.
   * One that expected more than this process has seen written followed an append still on its way
   * or refused since: that append's own answer tells about the stream, and what is cached stands.
   */
  contest(stream: string, expected: ExpectedRevision): void {
    if (typeof expected === 'number' && expected > (this.cache.get(stream)?.revision ?? -1)) return;
    this.contested.add(stream);
  }
}
