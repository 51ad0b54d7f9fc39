import { comparePositions, LogPosition, START } from '#event-store/index.js';

interface Waiter {
  readonly position: LogPosition;
  readonly done: (reached: boolean) => void;
}

/**
 * Writes waiting for the read models: each resolves true once the projections' checkpoint
 * has reached its position, or false when its time is up. One known position serves every
 * waiter, so a thousand waiting writes cost no more queries than one.
 */
export class PositionWaiters {
  private known: LogPosition = START;
  private readonly waiters = new Set<Waiter>();

  get reached(): LogPosition {
    return this.known;
  }

  get waiting(): number {
    return this.waiters.size;
  }

  /** Checkpoints only move forward; an older report (a late notification) changes nothing. */
  advance(position: LogPosition): void {
    if (comparePositions(position, this.known) <= 0) return;
    this.known = position;
    for (const waiter of this.waiters) {
      if (comparePositions(waiter.position, position) <= 0) waiter.done(true);
    }
  }

  wait(position: LogPosition, timeoutMs: number): Promise<boolean> {
    if (comparePositions(position, this.known) <= 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => waiter.done(false), timeoutMs);
      const waiter: Waiter = {
        position,
        done: (reached) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(reached);
        },
      };
      this.waiters.add(waiter);
    });
  }

  /** On shutdown: nobody waits past the process. */
  releaseAll(): void {
    for (const waiter of this.waiters) waiter.done(false);
  }
}
