/**
 * Who the event loop should serve first: the requests being answered, before work that has
 * already run long. Pausing every slice (runPausing) bounds how long a long answer holds the loop
 * at a time, not how much of the host it takes: a wide tree's thousand candidates, tens of
 * milliseconds of work in slices that follow each other, kept the process on a core throughout,
 * and every request meanwhile waited for its connection to be accepted, its PostgreSQL replies to
 * be read. A job past `longAfterMs` of work therefore waits `waitMs` after each slice while
 * other requests are being answered, and runs at full speed once none is. It does not go on at
 * the first moment none is: between two requests the loop is idle, but the host is not (the
 * database writing their claims, the clients reading their answers), and an answer taken in
 * every such lull competes with them for the cores as much as one never paused.
 */
export class LoopTurns {
  /** Requests being answered, less the long jobs among them. */
  private answering = 0;
  private long = 0;

  constructor(readonly longAfterMs = 10, readonly waitMs = 16) {}

  /** A request arrives (the HTTP pipeline's first hook). */
  begin(): void {
    this.answering++;
  }

  /** A request's answer is written or abandoned. */
  end(): void {
    this.answering--;
  }

  /** A job has run past `longAfterMs`: its request no longer holds the others back. */
  demote(): void {
    this.long++;
    this.end();
  }

  /** The long job is done: its request counts again until its answer is written. */
  restore(): void {
    this.long--;
    this.begin();
  }

  /** Requests being answered, long jobs aside (the metric placement_http_requests_in_progress). */
  get answeringNow(): number {
    return this.answering;
  }

  /** Long jobs letting the others go first (placement_long_answers_in_progress). */
  get longNow(): number {
    return this.long;
  }

  /** A long job's next slice: at once if no other request is being answered, else after `waitMs`. */
  nextSlice(): Promise<void> {
    if (this.answering <= 0) return Promise.resolve();
    return new Promise((resolve) => setTimeout(resolve, this.waitMs));
  }
}

/** The process's one event loop, shared by every request. */
export const LOOP_TURNS = new LoopTurns();
