import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EVERY } from '../../../../projections/usage-over-time/usage-series.js';
import { READ_DB, ReadDb } from '../shared/read-db.js';
import { alignDown, alignUp, BucketWidth, ClassHistory, ClassUsage, StoredHour, usageTimeline, UsageWindow } from './usage-timeline.js';

/** Whose usage: a project, optionally one user and/or one consumer type ('unknown': untyped). */
export interface UsageScope {
  readonly projectId: string;
  readonly userId?: string;
  readonly consumerType?: string;
  readonly resourceClass?: string;
}

export class GetUsageOverTime {
  /** `end` undefined: up to now. Times are epoch ms, aligned to `width` by the handler. */
  constructor(readonly scope: UsageScope, readonly start: number, readonly end: number | undefined, readonly width: BucketWidth) {}
}

export interface UsageOverTime {
  readonly window: UsageWindow;
  /** The database's clock when read: buckets stop here. */
  readonly now: number;
  readonly classes: readonly ClassUsage[];
}

interface Row {
  part: 0 | 1 | 2;
  resource_class: string | null;
  hour_start: Date | null;
  net_change: string | null;
  unit_ms: string | null;
  peak: string | null;
  last_change_at: Date | null;
}

/**
 * One statement (one snapshot, one clock): each class's level before the window (the sum of
 * every earlier hour's net change), the window's hour rows, and the database's now.
 */
const SQL = `
  SELECT 0 AS part, resource_class, NULL::timestamptz AS hour_start, SUM(net_change)::text AS net_change,
         NULL::text AS unit_ms, NULL::text AS peak, NULL::timestamptz AS last_change_at
    FROM rm_usage_hours
   WHERE project_id = $1 AND user_id = $2 AND consumer_type = $3 AND ($6::text IS NULL OR resource_class = $6) AND hour_start < $4
   GROUP BY resource_class
  UNION ALL
  SELECT 1, resource_class, hour_start, net_change::text, change_unit_ms::text, peak_above_start::text, last_change_at
    FROM rm_usage_hours
   WHERE project_id = $1 AND user_id = $2 AND consumer_type = $3 AND ($6::text IS NULL OR resource_class = $6)
     AND hour_start >= $4 AND ($5::timestamptz IS NULL OR hour_start < $5)
  UNION ALL
  SELECT 2, NULL, statement_timestamp(), NULL, NULL, NULL, NULL`;

/** Usage over time from rm_usage_hours: a month of hours is ~720 rows per class, never the log. */
@QueryHandler(GetUsageOverTime)
export class GetUsageOverTimeHandler implements IQueryHandler<GetUsageOverTime, UsageOverTime> {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  async execute({ scope, start, end, width }: GetUsageOverTime): Promise<UsageOverTime> {
    const from = alignDown(start, width);
    const to = end === undefined ? undefined : alignUp(end, width);
    const { rows } = await this.db.query<Row>(SQL, [
      scope.projectId, scope.userId ?? EVERY, scope.consumerType ?? EVERY,
      new Date(from), to === undefined ? null : new Date(to), scope.resourceClass ?? null,
    ]);
    const now = rows.find((row) => row.part === 2)!.hour_start!.getTime();
    const histories = new Map<string, { levelBefore: number; hours: StoredHour[] }>();
    const historyOf = (rc: string) => {
      let history = histories.get(rc);
      if (!history) histories.set(rc, (history = { levelBefore: 0, hours: [] }));
      return history;
    };
    if (scope.resourceClass !== undefined) historyOf(scope.resourceClass);
    for (const row of rows) {
      if (row.part === 0) historyOf(row.resource_class!).levelBefore = Number(row.net_change);
      if (row.part !== 1) continue;
      historyOf(row.resource_class!).hours.push({
        hourStart: row.hour_start!.getTime(), net: Number(row.net_change), unitMs: Number(row.unit_ms),
        peakAboveStart: Number(row.peak), lastChangeAt: row.last_change_at!.getTime(),
      });
    }
    const window: UsageWindow = { start: from, end: to ?? alignUp(now + 1, width), width };
    // A class nothing held in the window or before it is not reported (unless asked for by name).
    const classes: ClassHistory[] = [...histories]
      .filter(([rc, h]) => rc === scope.resourceClass || h.levelBefore !== 0 || h.hours.length > 0)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([resourceClass, h]) => ({ resourceClass, ...h, hours: h.hours.sort((a, b) => a.hourStart - b.hourStart) }));
    return { window, now, classes: usageTimeline(classes, window, now) };
  }
}
