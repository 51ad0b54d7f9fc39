import { Injectable } from '@nestjs/common';
import { AppendRequest, EventMetadata } from '#event-store/index.js';
import { Caller, metadataOf } from './caller.js';
import { Loaded, MAX_ATTEMPTS, StreamWriter } from './stream-writer.js';

/** How a stream type's state is rebuilt from its events: the evolve and initial state of its decider. */
export interface StreamType<State, Event> {
  readonly evolve: (state: State, event: Event) => State;
  readonly initialState: () => State;
}

interface Fact { readonly type: string; readonly data: object }

/**
 * One attempt at a command: the streams it loaded (with the revision each was at) and the
 * events it decided for them. Writing to a stream expects the revision it was loaded at, so a
 * write can only follow a load: what was decided on is what the append checks.
 */
export class Attempt {
  private readonly loaded = new Map<string, { state: unknown; revision: number }>();
  private readonly decided = new Map<string, Fact[]>();

  constructor(private readonly writer: StreamWriter, preloaded?: ReadonlyMap<string, Loaded<unknown>>) {
    for (const [stream, loaded] of preloaded ?? []) this.loaded.set(stream, loaded);
  }

  /** A stream loaded twice in one attempt answers the same state: one decision, one snapshot of each stream. */
  async load<State, Event>(stream: string, type: StreamType<State, Event>): Promise<State> {
    const known = this.loaded.get(stream);
    if (known) return known.state as State;
    const { state, revision } = await this.writer.load<State, Event>(stream, type.evolve, type.initialState);
    this.loaded.set(stream, { state, revision });
    return state;
  }

  write(stream: string, events: readonly Fact[]): void {
    if (!this.loaded.has(stream)) throw new Error(`stream ${stream} is written without having been loaded`);
    this.decided.set(stream, [...(this.decided.get(stream) ?? []), ...events]);
  }

  appends(metadata: EventMetadata): AppendRequest[] {
    return [...this.decided.entries()].map(([stream, events]) => ({
      stream, expectedRevision: this.loaded.get(stream)!.revision, events: events.map((event) => ({ ...event, metadata })),
    }));
  }
}

export interface RunOptions {
  /** How many times the command is decided before a lost race reaches the caller (WrongExpectedRevision). */
  readonly attempts?: number;
  /** Added to every event's metadata, beside who asked. */
  readonly metadata?: Readonly<Record<string, string>>;
  /**
   * Streams the caller loaded moments before, for the first attempt to decide on without reading
   * them again (a round trip each). Safe: the append checks the revision they were loaded at, a
   * lost race is decided again on freshly read state, and so is a refusal.
   */
  readonly preloaded?: ReadonlyMap<string, Loaded<unknown>>;
}

/**
 * The one path every command takes: load the streams it needs, decide, and append every
 * decided event in ONE atomic append with the revisions loaded. Another writer getting there
 * first is internal: the command is decided again on the fresher state (cached, so only the
 * newer events are read), a bounded number of times, without sleeping. A generation the client
 * sent that no longer matches is the decider's own 409, never a retry.
 */
@Injectable()
export class CommandRunner {
  constructor(private readonly writer: StreamWriter) {}

  async run<Outcome>(caller: Caller, decide: (attempt: Attempt) => Promise<Outcome>, options: RunOptions = {}): Promise<Outcome> {
    const metadata = { ...metadataOf(caller), ...options.metadata };
    let preloaded = options.preloaded;
    const plan = async (seed?: ReadonlyMap<string, Loaded<unknown>>) => {
      const attempt = new Attempt(this.writer, seed);
      const outcome = await decide(attempt);
      return { appends: attempt.appends(metadata), outcome };
    };
    const { outcome } = await this.writer.execute(async () => {
      const seed = preloaded;
      preloaded = undefined;
      if (!seed) return plan();
      // A refusal decided on preloaded state mixed with fresh state may name the wrong cause
      // (a capacity error where the consumer's generation moved on), and a decision to write
      // nothing is checked by no append: only fresh state refuses or answers without writing.
      try {
        const planned = await plan(seed);
        return planned.appends.some((append) => append.events.length > 0) ? planned : plan();
      } catch {
        return plan();
      }
    }, options.attempts ?? MAX_ATTEMPTS);
    return outcome;
  }
}
