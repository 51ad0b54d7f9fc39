import { Inject, Injectable, Optional } from '@nestjs/common';
import { AppendRequest, AppendResult, EVENT_STORE, EventStore, WrongExpectedRevision } from '#event-store/index.js';
import { AcknowledgedWrites } from './acknowledged-writes.js';
import { Attempt } from './attempt.js';
import { Caller, metadataOf } from './caller.js';
import { DeciderStates, Loaded } from './decider-states.js';
import { GuessRecord } from './guess-record.js';
import { KeyedLock } from './keyed-lock.js';

/** Retrying a lost race is cheap: the state is cached and only newer events are read. */
export const MAX_ATTEMPTS = 10;

export interface RunOptions {
  /** How many times the command is decided before a lost race reaches the caller (WrongExpectedRevision). */
  readonly attempts?: number;
  /** Added to every event's metadata, beside who asked. */
  readonly metadata?: Readonly<Record<string, string>>;
  /**
   * Streams the command will likely write. Commands sharing one take turns in this process
   * (KeyedLock) instead of racing each other to the log, whose check then only meets other processes.
   */
  readonly turns?: readonly string[];
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

/** An attempt decided, and whether its append rests on a guess (a lost race then means the guess was stale). */
interface Planned<Outcome> { readonly attempt: Attempt; readonly outcome: Outcome; readonly guessed: boolean }

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
  private readonly turns = new KeyedLock();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly states: DeciderStates,
    @Optional() private readonly acknowledged?: AcknowledgedWrites,
  ) {}

  run<Outcome>(caller: Caller, decide: (attempt: Attempt) => Promise<Outcome>, options: RunOptions = {}): Promise<Outcome> {
    if (!options.turns) return this.decideAndAppend(caller, decide, options);
    return this.turns.run(options.turns, () => this.decideAndAppend(caller, decide, options));
  }

  private async decideAndAppend<Outcome>(caller: Caller, decide: (attempt: Attempt) => Promise<Outcome>, options: RunOptions): Promise<Outcome> {
    const metadata = { ...metadataOf(caller), ...options.metadata };
    let planned = await this.firstAttempt(decide, options);
    for (let tries = 1; ; tries++) {
      const { attempt, outcome, guessed } = planned;
      if (!attempt.writesAnything) return outcome;
      const result = await this.append(attempt.appends(metadata));
      if (guessed) this.guesses.record(result instanceof WrongExpectedRevision);
      if (!(result instanceof WrongExpectedRevision)) {
        attempt.remember(result);
        this.acknowledged?.record(caller.requestId);
        return outcome;
      }
      if (tries >= (options.attempts ?? MAX_ATTEMPTS)) throw result;
      planned = await this.freshAttempt(decide);
    }
  }

  /**
   * Decides on preloaded state and, while guesses pay off, on what this process last knew of each
   * stream, reading only the rest. A refusal decided on unread state mixed with fresh state may
   * name the wrong cause (a capacity error where the consumer's generation moved on), and a
   * decision to write nothing, or resting on a guess it does not write, is checked by no append:
   * only fresh state refuses or answers without writing.
   */
  private async firstAttempt<Outcome>(decide: (attempt: Attempt) => Promise<Outcome>, options: RunOptions): Promise<Planned<Outcome>> {
    const guessing = this.guesses.worthGuessing();
    let guessed = false;
    const attempt = new Attempt(this.states, (stream, type) => {
      const preloaded = options.preloaded?.get(stream) as Loaded<any> | undefined;
      if (preloaded || !guessing) return preloaded;
      const known = this.states.cached(stream) ?? (options.presumedNew?.(stream) ? { state: type.initialState(), revision: -1 } : undefined);
      if (known) guessed = true;
      return known;
    });
    let outcome: Outcome;
    try {
      outcome = await decide(attempt);
    } catch (error) {
      if (!attempt.seeded) throw error;
      return this.freshAttempt(decide);
    }
    if (attempt.seeded && (!attempt.writesAnything || attempt.restsOnUncheckedGuess)) return this.freshAttempt(decide);
    return { attempt, outcome, guessed };
  }

  private async freshAttempt<Outcome>(decide: (attempt: Attempt) => Promise<Outcome>): Promise<Planned<Outcome>> {
    const attempt = new Attempt(this.states);
    return { attempt, outcome: await decide(attempt), guessed: false };
  }

  /** The append, or the race it lost: the stream that moved on is then read before it is guessed again. */
  private async append(appends: AppendRequest[]): Promise<AppendResult | WrongExpectedRevision> {
    try {
      return await this.store.append(appends);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision)) throw error;
      this.states.contest(error.stream);
      return error;
    }
  }
}
