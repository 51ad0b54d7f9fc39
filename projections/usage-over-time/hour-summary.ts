export const HOUR_MS = 3_600_000;

/** Buckets are UTC hours; a day is 24 of them. */
export const hourOf = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

/** A series' level moved by `delta` units at `at` (epoch ms); simultaneous moves are one change. */
export interface LevelChange {
  readonly at: number;
  readonly delta: number;
}

/**
 * What the changes inside one hour did, relative to the level the hour started at (which is
 * the sum of every earlier hour's `net`, found when reading). Every field but the peak is a
 * sum, so changes may be folded in in any order; the peak is a running maximum and is folded
 * incrementally only for a change later than every other, and recomputed otherwise.
 */
export interface HourSummary {
  /** Units gained minus units released in the hour. */
  readonly net: number;
  /**
   * Unit-milliseconds the changes add to the hour: a change of d at t counts d from t to the
   * hour's end. The hour's integral is start level x 1 h + this.
   */
  readonly unitMs: bigint;
  /**
   * The highest level reached in the hour, minus the start level. The start level itself
   * counts (0 here) unless a change falls exactly on the hour's first instant, which makes the
   * start level last no time at all.
   */
  readonly peakAboveStart: number;
  readonly lastChangeAt: number;
}

const unitMsOf = (hour: number, change: LevelChange) => BigInt(change.delta) * BigInt(hour + HOUR_MS - change.at);

/** The summary a bucket's first change creates. */
export function firstChange(hour: number, change: LevelChange): HourSummary {
  return {
    net: change.delta,
    unitMs: unitMsOf(hour, change),
    peakAboveStart: change.at > hour ? Math.max(0, change.delta) : change.delta,
    lastChangeAt: change.at,
  };
}

/** Folds in a change later than every change already in the bucket (the usual arrival order). */
export function laterChange(hour: number, summary: HourSummary, change: LevelChange): HourSummary {
  if (change.at <= summary.lastChangeAt) throw new Error('laterChange needs a change after the last one');
  const net = summary.net + change.delta;
  return { net, unitMs: summary.unitMs + unitMsOf(hour, change), peakAboveStart: Math.max(summary.peakAboveStart, net), lastChangeAt: change.at };
}

/**
 * The summary of all of an hour's changes, whatever order they arrived in: what the
 * projection recomputes when a change arrives that is not the latest (two transactions commit
 * in another order than they started, or two consumers move in one transaction).
 */
export function summarize(hour: number, changes: readonly LevelChange[]): HourSummary {
  const [first, ...rest] = instants(changes);
  return rest.reduce((summary, change) => laterChange(hour, summary, change), firstChange(hour, first));
}

/** Changes at one instant act as one (their order within the instant is not a fact); in time order. */
function instants(changes: readonly LevelChange[]): LevelChange[] {
  if (changes.length === 0) throw new Error('an hour is summarized from at least one change');
  const byInstant = new Map<number, number>();
  for (const change of changes) byInstant.set(change.at, (byInstant.get(change.at) ?? 0) + change.delta);
  return [...byInstant].sort(([a], [b]) => a - b).map(([at, delta]) => ({ at, delta }));
}
