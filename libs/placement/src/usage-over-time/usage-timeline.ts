import { HOUR_MS } from '#projections/usage-over-time/hour-summary.js';

export type BucketWidth = 'hour' | 'day';
export const BUCKET_MS: Readonly<Record<BucketWidth, number>> = { hour: HOUR_MS, day: 24 * HOUR_MS };

/** Buckets [start, end) of one width, both ends on the width's UTC boundaries (epoch ms). */
export interface UsageWindow {
  readonly start: number;
  readonly end: number;
  readonly width: BucketWidth;
}

/** One rm_usage_hours row, read back. */
export interface StoredHour {
  readonly hourStart: number;
  readonly net: number;
  readonly unitMs: number;
  readonly peakAboveStart: number;
  readonly lastChangeAt: number;
}

/** A class's level when the window opens, and its hour rows inside the window, in order. */
export interface ClassHistory {
  readonly resourceClass: string;
  readonly levelBefore: number;
  readonly hours: readonly StoredHour[];
}

export interface UsageBucket {
  readonly start: number;
  /** Most units held at any instant of the bucket (up to now). */
  readonly peak: number;
  /** Units x milliseconds held in the bucket (up to now). */
  readonly unitMs: number;
}

export interface ClassUsage {
  readonly resourceClass: string;
  readonly buckets: readonly UsageBucket[];
  readonly peak: number;
  readonly unitMs: number;
}

export const alignDown = (ms: number, width: BucketWidth) => Math.floor(ms / BUCKET_MS[width]) * BUCKET_MS[width];
export const alignUp = (ms: number, width: BucketWidth) => Math.ceil(ms / BUCKET_MS[width]) * BUCKET_MS[width];

/**
 * The window's hours up to `now`, each from the level it started at (carried from the hour
 * before) and its row if the level moved in it. The hour holding `now` counts only up to now:
 * its changes added d x (hour end - t) each, so the part after now, net x (hour end - now), is
 * taken off again. Hours from now on are not reported.
 */
export function hourlyBuckets(history: ClassHistory, window: UsageWindow, now: number): UsageBucket[] {
  const byHour = new Map(history.hours.map((row) => [row.hourStart, row]));
  const buckets: UsageBucket[] = [];
  let level = history.levelBefore;
  for (let hour = alignDown(window.start, 'hour'); hour < window.end && hour < now; hour += HOUR_MS) {
    const row = byHour.get(hour);
    const open = now < hour + HOUR_MS;
    const held = open ? now - hour : HOUR_MS;
    const unitMs = level * held + (row ? row.unitMs - (open ? row.net * (hour + HOUR_MS - now) : 0) : 0);
    buckets.push({ start: hour, peak: level + (row?.peakAboveStart ?? 0), unitMs });
    level += row?.net ?? 0;
  }
  return buckets;
}

/** Hours folded into buckets of `width`: the highest peak, the summed integral. */
export function foldBuckets(hours: readonly UsageBucket[], width: BucketWidth): UsageBucket[] {
  if (width === 'hour') return [...hours];
  const folded: UsageBucket[] = [];
  for (const hour of hours) {
    const start = alignDown(hour.start, width);
    const last = folded[folded.length - 1];
    if (last && last.start === start) folded[folded.length - 1] = { start, peak: Math.max(last.peak, hour.peak), unitMs: last.unitMs + hour.unitMs };
    else folded.push({ ...hour, start });
  }
  return folded;
}

/**
 * Every class's buckets over the window. `now` is at least the latest change read, so a clock
 * a little behind the database's never puts a change in the future.
 */
export function usageTimeline(histories: readonly ClassHistory[], window: UsageWindow, now: number): ClassUsage[] {
  const latest = histories.reduce((max, h) => h.hours.reduce((m, row) => Math.max(m, row.lastChangeAt), max), now);
  return histories.map((history) => {
    const buckets = foldBuckets(hourlyBuckets(history, window, latest), window.width);
    return {
      resourceClass: history.resourceClass,
      buckets,
      peak: buckets.reduce((max, b) => Math.max(max, b.peak), 0),
      unitMs: buckets.reduce((sum, b) => sum + b.unitMs, 0),
    };
  });
}
