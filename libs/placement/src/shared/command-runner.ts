import { Injectable, Optional } from '@nestjs/common';
import { AppendRequest, AppendResult, EventMetadata } from '#event-store/index.js';
import { AcknowledgedWrites } from './acknowledged-writes.js';
import { Caller, metadataOf } from './caller.js';
import { GuessRecord } from './guess-record.js';
import { Loaded, MAX_ATTEMPTS, StreamWriter } from './stream-writer.js';

/** How a stream type's state is rebuilt from its events: the evolve and initial state of its decider. */
export interface StreamType<State, Event> {
  readonly evolve: (state: State, event: Event) => State;
  readonly initialState: () => State;
}

interface Fact { readonly type: string; readonly data: object }

/**
 * Where an attempt takes a stream's state without reading it: preloaded by the caller, or what
 * this process last knew of it. Only a first attempt has one.
 */
type Seed = <State>(stream: string, type: StreamType<State, any>) => Loaded<State> | undefined;

/**
 * One attempt at a command: the streams it loaded (with the revision each was at) and the
 * events it decided for them. Writing to a stream expects the revision it was loaded at, so a
 * write can only follow a load: what was decided on is what the append checks.
 */
export class Attempt {
  private readonly loaded = new Map<string, { state: unknown; revision: number; type?: StreamType<any, any>; seeded?: boolean }>();
  private readonly decided = new Map<string, Fact[]>();

  constructor(private readonly writer: StreamWriter, private readonly seed?: Seed) {}

  /** A stream loaded twice in one attempt answers the same state: one decision, one snapshot of each stream. */
  async load<State, Event>(stream: string, type: StreamType<State, Event>): Promise<State> {
    const known = this.loaded.get(stream);
    if (known) return known.state as State;
    const seeded = this.seed?.(stream, type);
    const { state, revision } = seeded ?? await this.writer.load<State, Event>(stream, type.evolve, type.initialState);
    this.loaded.set(stream, { state, revision, type, seeded: seeded !== undefined });
    return state;
  }

  /** Whether some state this attempt decided on was not read from the log (a seed). */
  get seeded(): boolean {
    for (const loaded of this.loaded.values()) if (loaded.seeded) return true;
    return false;
  }

  /**
   * Whether the decision rests on a seeded (guessed) stream it does not write: the append checks
   * only the streams it writes, so such a guess (a parent, say) would go unchecked.
   */
  get restsOnUncheckedGuess(): boolean {
    for (const [stream, loaded] of this.loaded) if (loaded.seeded && !this.decided.has(stream)) return true;
    return false;
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

  /**
   * Once appended, each written stream's state is known without reading it back: evolved by the
   * events in the form a read of the log gives them (PostgreSQL's jsonb orders keys, and messages
   * listing resource classes follow that order).
   */
  remember(result: AppendResult): void {
    for (const [stream, events] of this.decided) {
      const { state, revision, type } = this.loaded.get(stream)!;
      const head = result.revisions[stream];
      if (!type || events.length === 0 || head !== revision + events.length) continue;
      const stored = events.map((event) => ({ type: event.type, data: this.writer.storedForm(event.data) }));
      this.writer.remember(stream, head, stored.reduce(type.evolve, state));
    }
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
  /**
   * Streams a creation makes: when this process has never seen them, the first attempt takes them
   * for absent instead of reading them; one that exists fails the append's check (expected: no
   * stream) and the command is decided again on what the log holds.
   */
  readonly presumedNew?: (stream: string) => boolean;
}

/**
 * The one path every command takes: load the streams it needs, decide, and append every
 * decided event in ONE atomic append with the revisions loaded. The first attempt decides on
 * what this process last knew of each stream (its own appends included) without reading it:
 * the append's expected revisions check that guess, as they check a read (and while guesses
 * turn out stale too often, GuessRecord, commands read first). Another writer getting
 * there first is internal: the command is decided again on freshly read state (only the newer
 * events are read), a bounded number of times, without sleeping. A generation the client sent
 * that no longer matches is the decider's own 409, never a retry.
 */
@Injectable()
export class CommandRunner {
  private readonly guesses = new GuessRecord();

  constructor(private readonly writer: StreamWriter, @Optional() private readonly acknowledged?: AcknowledgedWrites) {}

  async run<Outcome>(caller: Caller, decide: (attempt: Attempt) => Promise<Outcome>, options: RunOptions = {}): Promise<Outcome> {
    const metadata = { ...metadataOf(caller), ...options.metadata };
    const guessing = this.guesses.worthGuessing();
    let guessed = false;
    const seed: Seed = (stream, type) => {
      const preloaded = options.preloaded?.get(stream) as Loaded<any> | undefined;
      if (preloaded || !guessing) return preloaded;
      const known = this.writer.cached(stream) ?? (options.presumedNew?.(stream) ? { state: type.initialState(), revision: -1 } : undefined);
      if (known) guessed = true;
      return known;
    };
    let first = true;
    /** The first attempt when its append rests on a guess: a retry means the guess was stale. */
    let guessedAppend = false;
    const plan = async (attempt: Attempt) => {
      const outcome = await decide(attempt);
      return { appends: attempt.appends(metadata), outcome: { outcome, attempt } };
    };
    const { outcome, result } = await this.writer.execute(async () => {
      if (!first) {
        if (guessedAppend) this.guesses.record(true);
        guessedAppend = false;
        return plan(new Attempt(this.writer));
      }
      first = false;
      // A refusal decided on unread state mixed with fresh state may name the wrong cause (a
      // capacity error where the consumer's generation moved on), and a decision to write
      // nothing is checked by no append: only fresh state refuses or answers without writing.
      const attempt = new Attempt(this.writer, seed);
      try {
        const planned = await plan(attempt);
        if (!attempt.seeded) return planned;
        if (!planned.appends.some((append) => append.events.length > 0) || attempt.restsOnUncheckedGuess) return plan(new Attempt(this.writer));
        guessedAppend = guessed;
        return planned;
      } catch (error) {
        if (!attempt.seeded) throw error;
        return plan(new Attempt(this.writer));
      }
    }, options.attempts ?? MAX_ATTEMPTS);
    if (guessedAppend) this.guesses.record(false);
    if (result) {
      outcome.attempt.remember(result);
      this.acknowledged?.record(caller.requestId);
    }
    return outcome.outcome;
  }
}
