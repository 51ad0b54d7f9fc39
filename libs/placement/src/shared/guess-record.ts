/** Above this share of stale guesses lately, commands read their streams before deciding. */
const MOST_MISSED = 0.1;
/** How much each outcome weighs in the share: about the last 20 guesses count. */
const WEIGHT = 0.05;
/** While guesses are not worth it, one command in this many still guesses, to notice when they are again. */
const PROBE_EVERY = 20;

/**
 * How often deciding on cached state without reading it paid off lately. Alone on its log, a
 * process's cache is always current and every guess saves a read; beside other writers of the same
 * streams (several API workers or hosts), a stale guess costs a refused append (three round trips)
 * where a read costs one, so past a tenth of guesses missed, commands read first.
 */
export class GuessRecord {
  private missedShare = 0;
  private skipped = 0;

  worthGuessing(): boolean {
    if (this.missedShare <= MOST_MISSED) return true;
    return ++this.skipped % PROBE_EVERY === 0;
  }

  record(missed: boolean): void {
    this.missedShare = this.missedShare * (1 - WEIGHT) + (missed ? WEIGHT : 0);
  }
}
