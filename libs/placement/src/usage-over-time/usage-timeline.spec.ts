import { HOUR_MS, LevelChange } from '#projections/usage-over-time/hour-summary.js';
import { UsageOverTimeMemory } from '#projections/usage-over-time/usage-over-time.memory.js';
import { bucketsFromChanges } from './step-function.js';
import { alignDown, alignUp, ClassHistory, foldBuckets, hourlyBuckets, StoredHour, usageTimeline, UsageWindow } from './usage-timeline.js';

const T0 = Date.UTC(2026, 0, 1);
const at = (hours: number) => T0 + hours * HOUR_MS;
const row = (hour: number, r: Partial<StoredHour>): StoredHour =>
  ({ hourStart: at(hour), net: 0, unitMs: 0, peakAboveStart: 0, lastChangeAt: at(hour), ...r });

describe('usage timeline from stored hours', () => {
  const window: UsageWindow = { start: at(0), end: at(4), width: 'hour' };

  it('carries the level through hours without rows', () => {
    const history: ClassHistory = { resourceClass: 'VCPU', levelBefore: 2, hours: [row(1, { net: 2, unitMs: 2 * HOUR_MS / 2, peakAboveStart: 2, lastChangeAt: at(1.5) })] };
    expect(hourlyBuckets(history, window, at(100))).toEqual([
      { start: at(0), peak: 2, unitMs: 2 * HOUR_MS },
      { start: at(1), peak: 4, unitMs: 2 * HOUR_MS + HOUR_MS },
      { start: at(2), peak: 4, unitMs: 4 * HOUR_MS },
      { start: at(3), peak: 4, unitMs: 4 * HOUR_MS },
    ]);
  });

  it('counts the hour holding now only up to now, its later part taken off', () => {
    // +2 at 1:15 (stored as 2 x 45 min), read at 1:30: 2 units for 15 minutes on top of level 1.
    const history: ClassHistory = { resourceClass: 'VCPU', levelBefore: 1, hours: [row(1, { net: 2, unitMs: 2 * 0.75 * HOUR_MS, peakAboveStart: 2, lastChangeAt: at(1.25) })] };
    expect(hourlyBuckets(history, window, at(1.5))).toEqual([
      { start: at(0), peak: 1, unitMs: HOUR_MS },
      { start: at(1), peak: 3, unitMs: 0.5 * HOUR_MS + 2 * 0.25 * HOUR_MS },
    ]);
  });

  it('folds hours into days: the highest peak, the summed integral', () => {
    const hours = [{ start: at(22), peak: 1, unitMs: 5 }, { start: at(23), peak: 3, unitMs: 6 }, { start: at(24), peak: 2, unitMs: 7 }];
    expect(foldBuckets(hours, 'day')).toEqual([{ start: at(0), peak: 3, unitMs: 11 }, { start: at(24), peak: 2, unitMs: 7 }]);
  });

  it('never puts a change after now when the clock is behind the last change', () => {
    const history: ClassHistory = { resourceClass: 'VCPU', levelBefore: 0, hours: [row(0, { net: 1, unitMs: 0.5 * HOUR_MS, peakAboveStart: 1, lastChangeAt: at(0.5) })] };
    const [vcpu] = usageTimeline([history], window, at(0.25));
    expect(vcpu.buckets).toEqual([{ start: at(0), peak: 1, unitMs: 0 }]);
  });

  it('agrees with the step function for random histories, any arrival order, hours and days, open or closed', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 60; round++) {
      const memory = new UsageOverTimeMemory();
      // The log holds nothing after now; now may fall inside the window (the open bucket) or after it.
      const now = random() < 0.5 ? at(200) : at(Math.floor(random() * 100) / 4) + 1000;
      let events: { consumer: string; at: number; vcpu: number | null }[] = [];
      for (let i = 0; i < 30; i++) {
        // Instants on a coarse grid so that hour starts and simultaneous changes happen.
        events.push({ consumer: `c${Math.floor(random() * 5)}`, at: at(Math.floor(random() * 96) / 4), vcpu: random() < 0.2 ? null : Math.floor(random() * 5) });
      }
      events = events.filter((e) => e.at <= now).sort((a, b) => a.at - b.at);
      const revisions = new Map<string, number>();
      const recorded = events.map((e) => {
        const revision = (revisions.get(e.consumer) ?? -1) + 1;
        revisions.set(e.consumer, revision);
        return e.vcpu === null
          ? { stream: `consumer-${e.consumer}`, type: 'ConsumerRemoved', data: { generation: 1 }, recordedAt: new Date(e.at), revision }
          : { stream: `consumer-${e.consumer}`, type: 'ConsumerAllocationsReplaced', revision, recordedAt: new Date(e.at),
              data: { allocations: { rp: { VCPU: e.vcpu } }, project_id: 'p', user_id: 'u', consumer_type: null, generation: 1 } };
      });
      // Another consumer's events may arrive in any order; one consumer's never out of its own order.
      for (const consumer of [...revisions.keys()].sort(() => random() - 0.5)) {
        for (const event of recorded.filter((e) => e.stream === `consumer-${consumer}`)) memory.apply(event);
      }
      const hoursTable = memory.tables().find((t) => t.table === 'rm_usage_hours')!;
      const movesTable = memory.tables().find((t) => t.table === 'rm_usage_moves')!;
      const project = (r: readonly unknown[]) => r[0] === 'p' && r[1] === '' && r[2] === '';
      // The project's series moves by the sum of its claimants' moves at each instant.
      const byInstant = new Map<number, number>();
      for (const r of movesTable.rows.filter((m) => m[0] === 'p')) {
        const at = (r[3] as Date).getTime();
        byInstant.set(at, (byInstant.get(at) ?? 0) + ((r[4] as Record<string, number>).VCPU ?? 0));
      }
      const changes: LevelChange[] = [...byInstant].filter(([, delta]) => delta !== 0).map(([at, delta]) => ({ at, delta }));
      const start = at(Math.floor(random() * 30)), end = start + Math.floor(1 + random() * 60) * HOUR_MS;
      const stored = hoursTable.rows.filter(project).map((r) => ({
        hourStart: (r[4] as Date).getTime(), net: r[5] as number, unitMs: Number(r[6]), peakAboveStart: r[7] as number, lastChangeAt: (r[8] as Date).getTime(),
      }));
      const history: ClassHistory = {
        resourceClass: 'VCPU',
        levelBefore: stored.filter((h) => h.hourStart < start).reduce((sum, h) => sum + h.net, 0),
        hours: stored.filter((h) => h.hourStart >= start && h.hourStart < end).sort((a, b) => a.hourStart - b.hourStart),
      };
      for (const width of ['hour', 'day'] as const) {
        const w: UsageWindow = { start: alignDown(start, width), end: alignUp(end, width), width };
        const h: ClassHistory = width === 'hour' ? history : {
          ...history,
          levelBefore: stored.filter((x) => x.hourStart < w.start).reduce((sum, x) => sum + x.net, 0),
          hours: stored.filter((x) => x.hourStart >= w.start && x.hourStart < w.end).sort((a, b) => a.hourStart - b.hourStart),
        };
        const [vcpu] = usageTimeline([h], w, now);
        expect(vcpu.buckets).toEqual(bucketsFromChanges(changes, w, now));
      }
    }
  });
});
