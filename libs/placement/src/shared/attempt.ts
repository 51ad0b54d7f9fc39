import { AppendRequest, AppendResult, EventMetadata } from '#event-store/index.js';
import { DeciderStates, Loaded, StreamType } from './decider-states.js';

interface Fact { readonly type: string; readonly data: object }

/** A stream as an attempt's append will leave it. */
export interface StreamAhead { readonly stream: string; readonly revision: number; readonly state: unknown }

/**
 * Where an attempt takes a stream's state without reading it: preloaded by the caller, or what
 * this process last knew of it. Only a first attempt has one.
 */
export type Seed = <State>(stream: string, type: StreamType<State, any>) => Loaded<State> | undefined;

/**
 * One attempt at a command: the streams it loaded (with the revision each was at) and the
 * events it decided for them. Writing to a stream expects the revision it was loaded at, so a
 * write can only follow a load: what was decided on is what the append checks.
 */
export class Attempt {
  private readonly loaded = new Map<string, { state: unknown; revision: number; type: StreamType<any, any>; seeded: boolean; appending?: Promise<AppendResult> }>();
  private readonly decided = new Map<string, Fact[]>();
  private written?: StreamAhead[];

  constructor(private readonly states: DeciderStates, private readonly seed?: Seed) {}

  /** A stream loaded twice in one attempt answers the same state: one decision, one snapshot of each stream. */
  async load<State, Event>(stream: string, type: StreamType<State, Event>): Promise<State> {
    const known = this.loaded.get(stream);
    if (known) return known.state as State;
    const seeded = this.seed?.(stream, type);
    const { state, revision, appending } = seeded ?? await this.states.load(stream, type);
    this.loaded.set(stream, { state, revision, type, seeded: seeded !== undefined, appending });
    return state;
  }

  write(stream: string, events: readonly Fact[]): void {
    if (!this.loaded.has(stream)) throw new Error(`stream ${stream} is written without having been loaded`);
    this.decided.set(stream, [...(this.decided.get(stream) ?? []), ...events]);
  }

  /** Whether some state this attempt decided on was not read from the log (a seed). */
  get seeded(): boolean {
    for (const loaded of this.loaded.values()) if (loaded.seeded) return true;
    return false;
  }

  /**
   * Whether the decision rests on a seeded (guessed) stream it does not append to: the append
   * checks only the streams it writes events to, so such a guess (a parent, or a consumer a batch
   * leaves as it was) would go unchecked.
   */
  get restsOnUncheckedGuess(): boolean {
    for (const [stream, loaded] of this.loaded) if (loaded.seeded && !this.decided.get(stream)?.length) return true;
    return false;
  }

  get writesAnything(): boolean {
    for (const events of this.decided.values()) if (events.length > 0) return true;
    return false;
  }

  /** The appends on their way whose outcome this one's rests on: those that will leave a stream it writes in the state it decided on. */
  get restsOn(): Promise<AppendResult>[] {
    return [...new Set([...this.decided].filter(([, events]) => events.length > 0).flatMap(([stream]) => this.loaded.get(stream)!.appending ?? []))];
  }

  /** The append this attempt decided: each stream it wrote events to, expecting the revision it was loaded at. */
  appends(metadata: EventMetadata): AppendRequest[] {
    return [...this.decided.entries()].filter(([, events]) => events.length > 0).map(([stream, events]) => ({
      stream, expectedRevision: this.loaded.get(stream)!.revision, events: events.map((event) => ({ ...event, metadata })),
    }));
  }

  /**
   * What each written stream will be once the append is written: its revision, and its state
   * evolved by the events in the form a read of the log gives them (PostgreSQL's jsonb orders keys,
   * and messages listing resource classes follow that order).
   */
  ahead(): readonly StreamAhead[] {
    this.written ??= [...this.decided].filter(([, events]) => events.length > 0).map(([stream, events]) => {
      const { state, revision, type } = this.loaded.get(stream)!;
      const stored = events.map((event) => ({ type: event.type, data: this.states.storedForm(event.data) }));
      return { stream, revision: revision + events.length, state: stored.reduce(type.evolve, state) };
    });
    return this.written;
  }

  /** Once appended, each written stream's state is known without reading it back. */
  remember(result: AppendResult): void {
    for (const { stream, revision, state } of this.ahead()) {
      if (result.revisions[stream] === revision) this.states.remember(stream, revision, state);
    }
  }
}
