import type { LevelChange } from '#projections/usage-over-time/hour-summary.js';
import { alignDown, BUCKET_MS, UsageBucket, UsageWindow } from './usage-timeline.js';

/**
 * The definition the stored hours must reproduce, computed the plain way: a series' level is a
 * step function of time (each change holds until the next), every interval of constant level
 * is split over the buckets it overlaps, and a bucket's peak is the highest level held at any
 * instant of it. Used by the specs and the benchmark to check the projection's answers.
 */
export function bucketsFromChanges(changes: readonly LevelChange[], window: UsageWindow, now: number): UsageBucket[] {
  const steps = levelSteps(changes);
  const size = BUCKET_MS[window.width];
  const buckets: UsageBucket[] = [];
  for (let start = alignDown(window.start, window.width); start < window.end && start < now; start += size) {
    const end = Math.min(start + size, now);
    let unitMs = 0;
    let peak = levelAt(steps, start);
    steps.forEach((step, i) => {
      const until = i + 1 < steps.length ? steps[i + 1].at : Infinity;
      unitMs += step.level * overlap(step.at, until, start, end);
      // The level set at `at` is held at that instant; `now` itself is an instant of the open bucket.
      if (step.at > start && step.at < start + size && step.at <= now) peak = Math.max(peak, step.level);
    });
    buckets.push({ start, peak, unitMs });
  }
  return buckets;
}

interface Step {
  readonly at: number;
  readonly level: number;
}

/** The level from each change on, changes at one instant taken together. */
function levelSteps(changes: readonly LevelChange[]): Step[] {
  const byInstant = new Map<number, number>();
  for (const c of changes) byInstant.set(c.at, (byInstant.get(c.at) ?? 0) + c.delta);
  let level = 0;
  return [...byInstant].sort(([a], [b]) => a - b).map(([at, delta]) => ({ at, level: (level += delta) }));
}

function levelAt(steps: readonly Step[], instant: number): number {
  let level = 0;
  for (const step of steps) if (step.at <= instant) level = step.level;
  return level;
}

/** Length of [a, b) ∩ [c, d). */
export function overlap(a: number, b: number, c: number, d: number): number {
  return Math.max(0, Math.min(b, d) - Math.max(a, c));
}
