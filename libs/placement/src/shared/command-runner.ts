import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  AppendRequest, AppendResult, EVENT_STORE, EventMetadata, EventStore, WrongExpectedRevision, appendOnceAnswered,
} from '#event-store/index.js';
import { AcknowledgedWrites } from './acknowledged-writes.js';
import { Attempt } from './attempt.js';
import { Caller, metadataOf } from './caller.js';
import { DeciderStates, Loaded } from './decider-states.js';
import { GuessRecord } from './guess-record.js';
import { KeyedLock, Turn } from './keyed-lock.js';

/** Retrying a lost race is cheap: the state is cached and only newer events are read. */
export const MAX_ATTEMPTS = 10;

export interface RunOptions {
  /** How many times the command is decided before a lost race reaches the caller (WrongExpectedRevision). */
  readonly attempts?: number;
  /** Added to every event's metadata, beside who asked. */
  readonly metadata?: Readonly<Record<string, string>>;
  /**
   * Streams the command will likely write. Commands sharing one take turns in this process
   * (KeyedLock) instead of racing each other to the log, whose check then only meets other
   * processes; a turn passes on once the command's append is on its way (decideAndAppend).
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
    return this.turns.run(options.turns, (turn) => this.decideAndAppend(caller, decide, options, turn));
  }

  /**
   * With a turn, the next command on the same streams starts once this one's append is on its
   * way, not answered: it decides on the state that append leaves (DeciderStates.anticipate) and
   * appends right behind it, often in the same transaction (append-batches.ts). Its append is
   * written only if this one's is (EventStore.appendAfter), else it is decided again; and whatever
   * it decides on read state waits for this one's answer first.
   */
  private async decideAndAppend<Outcome>(
    caller: Caller, decide: (attempt: Attempt) => Promise<Outcome>, options: RunOptions, turn?: Turn,
  ): Promise<Outcome> {
    const metadata = { ...metadataOf(caller), ...options.metadata };
    let planned = await this.firstAttempt(decide, options, turn);
    for (let tries = 1; ; tries++) {
      const { attempt, outcome, guessed } = planned;
      if (!attempt.writesAnything) return outcome;
      const result = await this.append(attempt, metadata, turn);
      if (guessed) this.guesses.record(result instanceof WrongExpectedRevision);
      if (!(result instanceof WrongExpectedRevision)) {
        this.acknowledged?.record(caller.requestId);
        return outcome;
      }
      if (tries >= (options.attempts ?? MAX_ATTEMPTS)) throw result;
      planned = await this.freshAttempt(decide, turn);
    }
  }

  /**
   * Decides on preloaded state and, while guesses pay off, on what this process last knew of each
   * stream, reading only the rest. A refusal decided on unread state mixed with fresh state may
   * name the wrong cause (a capacity error where the consumer's generation moved on), and a
   * decision to write nothing, or resting on a guess it does not write, is checked by no append:
   * only fresh state refuses or answers without writing.
   */
  private async firstAttempt<Outcome>(decide: (attempt: Attempt) => Promise<Outcome>, options: RunOptions, turn?: Turn): Promise<Planned<Outcome>> {
    const guessing = this.guesses.worthGuessing();
    // Not guessing, it reads: what earlier turns append must be in the log first.
    if (!guessing) await turn?.earlierEnded;
    let guessed = false;
    const attempt = new Attempt(this.states, (stream, type) => {
      const preloaded = options.preloaded?.get(stream) as Loaded<any> | undefined;
      if (!guessing) return preloaded;
      const known = this.states.cached(stream) ?? (options.presumedNew?.(stream) ? { state: type.initialState(), revision: -1 } : undefined);
      // What was preloaded before the turn came, unless a command since wrote the stream.
      if (preloaded && (!known || known.revision <= preloaded.revision)) return preloaded;
      if (known) guessed = true;
      return known;
    });
    let outcome: Outcome;
    try {
      outcome = await decide(attempt);
    } catch (error) {
      if (!attempt.seeded) throw error;
      return this.freshAttempt(decide, turn);
    }
    if (attempt.seeded && (!attempt.writesAnything || attempt.restsOnUncheckedGuess)) return this.freshAttempt(decide, turn);
    return { attempt, outcome, guessed };
  }

  private async freshAttempt<Outcome>(decide: (attempt: Attempt) => Promise<Outcome>, turn?: Turn): Promise<Planned<Outcome>> {
    await turn?.earlierEnded;
    const attempt = new Attempt(this.states);
    return { attempt, outcome: await decide(attempt), guessed: false };
  }

  /**
   * The attempt's append, or the race it lost: the stream that moved on is then read before it is
   * guessed again. While it is on its way, what it will leave is anticipated and the turn handed on.
   */
  private async append(attempt: Attempt, metadata: EventMetadata, turn?: Turn): Promise<AppendResult | WrongExpectedRevision> {
    const withdrawals: (() => void)[] = [];
    try {
      const appending = this.appendAfter(attempt.restsOn, attempt.appends(metadata));
      for (const { stream, revision, state } of attempt.ahead()) withdrawals.push(this.states.anticipate(stream, revision, state, appending));
      turn?.handOver();
      const result = await appending;
      attempt.remember(result);
      return result;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision)) throw error;
      this.states.contest(error.stream, error.expected);
      return error;
    } finally {
      for (const withdraw of withdrawals) withdraw();
    }
  }

  private appendAfter(earlier: Promise<AppendResult>[], requests: AppendRequest[]): Promise<AppendResult> {
    if (earlier.length === 0) return this.store.append(requests);
    if (this.store.appendAfter) return this.store.appendAfter(earlier, requests);
    return appendOnceAnswered(earlier, requests, (ordered) => this.store.append(ordered));
  }
}
