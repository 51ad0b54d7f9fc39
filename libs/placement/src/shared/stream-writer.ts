import { Inject, Injectable, Optional } from '@nestjs/common';
import { AppendRequest, AppendResult, EVENT_STORE, EventStore, WrongExpectedRevision } from '#event-store/index.js';

export interface Loaded<State> {
  readonly state: State;
  /** -1 when the stream does not exist. */
  readonly revision: number;
}

interface CacheEntry { revision: number; state: unknown }

/** How the log gives event data back (PostgreSQL's jsonb orders keys); JSON's own form when not provided. */
export const STORED_FORM = Symbol('STORED_FORM');
export const jsonForm = (data: unknown): unknown => JSON.parse(JSON.stringify(data ?? null));

/** Retrying a lost race is cheap: the state is cached and only newer events are read. */
export const MAX_ATTEMPTS = 10;

/**
 * Loads decider states from their streams (cached by revision, caught up by reading only
 * newer events) and appends decisions atomically, deciding again when another writer won.
 */
@Injectable()
export class StreamWriter {
  private readonly cache = new Map<string, CacheEntry>();
  /** Streams whose append lost a race: their next load must find newer events. */
  private readonly contested = new Set<string>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Optional() @Inject(STORED_FORM) readonly storedForm: (data: unknown) => unknown = jsonForm,
  ) {}

  async load<State, Event>(stream: string, evolve: (s: State, e: Event) => State, initial: () => State): Promise<Loaded<State>> {
    const cached = this.cache.get(stream) as { revision: number; state: State } | undefined;
    let state = cached?.state ?? initial();
    let revision = cached?.revision ?? -1;
    let newer = await this.store.readStream(stream, revision + 1);
    if (this.contested.delete(stream) && cached && newer.length === 0) {
      // A race lost to nobody: the log is behind this cache (a failover onto a standby that never
      // got a commit this process read), so the cache is dropped rather than conflict forever.
      state = initial();
      revision = -1;
      newer = await this.store.readStream(stream, 0);
      this.cache.delete(stream);
    }
    for (const event of newer) {
      state = evolve(state, { type: event.type, data: event.data } as Event);
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
    return this.cache.get(stream) as Loaded<State> | undefined;
  }

  /** The state a stream is in after this process's append, so the next command need not read its own write back. */
  remember(stream: string, revision: number, state: unknown): void {
    const cached = this.cache.get(stream);
    // Another command may have read the stream further meanwhile: the cache only moves forward.
    if (!cached || cached.revision < revision) this.cache.set(stream, { revision, state });
  }

  /** Runs `plan` (load, decide) and appends what it returns; on a lost race, plans again, `maxAttempts` times in all. */
  async execute<Outcome>(
    plan: () => Promise<{ appends: AppendRequest[]; outcome: Outcome }>, maxAttempts = MAX_ATTEMPTS,
  ): Promise<{ outcome: Outcome; result?: AppendResult }> {
    for (let attempt = 1; ; attempt++) {
      const { appends, outcome } = await plan();
      const nonEmpty = appends.filter((a) => a.events.length > 0);
      if (nonEmpty.length === 0) return { outcome };
      try {
        const result = await this.store.append(nonEmpty);
        return { outcome, result };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevision)) throw error;
        this.contested.add(error.stream);
        if (attempt >= maxAttempts) throw error;
      }
    }
  }
}
