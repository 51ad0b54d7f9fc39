/** A stored snapshot as retention sees it: where it stands, counted in events from the log's start. */
export interface RetainedSnapshot {
  readonly id: string;
  readonly events: number;
}

/** The newest two: the one a start reads, and one before it in case the newest proves unreadable. */
export const NEWEST_KEPT = 2;
/**
 * In all: older ones stay spread over the log, so a question about a past moment (explain's
 * as_of) starts from one near it instead of from the log's beginning.
 */
const SNAPSHOTS_KEPT = 26;

/**
 * The snapshots to drop so that at most `kept` stay: never the newest two nor the oldest, and
 * each time the one whose going leaves the smallest gap (in events) between its neighbours, so
 * the ones kept stay evenly spread however long the log grows. `snapshots` newest first.
 */
export function snapshotsToDrop(snapshots: readonly RetainedSnapshot[], kept = SNAPSHOTS_KEPT): string[] {
  const left = [...snapshots];
  const dropped: string[] = [];
  while (left.length > Math.max(kept, NEWEST_KEPT + 1)) {
    let best = NEWEST_KEPT;
    for (let i = NEWEST_KEPT + 1; i < left.length - 1; i++) {
      if (left[i - 1].events - left[i + 1].events < left[best - 1].events - left[best + 1].events) best = i;
    }
    dropped.push(left[best].id);
    left.splice(best, 1);
  }
  return dropped;
}
