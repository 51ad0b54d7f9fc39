import type { FeedLimits } from '#platform/config.js';

/**
 * The feed's open long polls and streams, counted against its limits. A slot is taken before
 * anything is read and given back when the answer ends, however it ends.
 */
export class FeedSlots {
  private open = 0;
  private readonly byPrincipal = new Map<string, number>();

  constructor(readonly limits: FeedLimits) {}

  get size(): number {
    return this.open;
  }

  /** A release to call once the answer is over, or null when a limit is reached. */
  take(principal: string): (() => void) | null {
    const held = this.byPrincipal.get(principal) ?? 0;
    if (this.open >= this.limits.total || held >= this.limits.perPrincipal) return null;
    this.open++;
    this.byPrincipal.set(principal, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.open--;
      const left = (this.byPrincipal.get(principal) ?? 1) - 1;
      if (left === 0) this.byPrincipal.delete(principal);
      else this.byPrincipal.set(principal, left);
    };
  }
}
