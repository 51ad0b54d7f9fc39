import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EVERY } from '#projections/usage-over-time/usage-series.js';
import { READ_DB, ReadDb } from '../shared/read-db.js';
import { alignDown, alignUp, BucketWidth, ClassHistory, ClassUsage, usageTimeline, UsageWindow } from './usage-timeline.js';

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
  resource_class: string | null;
  level_before: string | null;
  /** [hour start ms, net, unit-ms, peak above start, last change ms] per hour row, in order. */
  hours: [number, number, number, number, number][] | null;
  now: string | null;
}

/**
 * One statement (one snapshot, one clock): per class, the level before the window (the sum of
 * every earlier hour's net change) and the window's hour rows as JSON, which the driver parses
 * far faster than a row per hour with timestamps; then the database's now.
 */
const SQL = `
  SELECT resource_class, SUM(net_change) FILTER (WHERE hour_start < $4)::text AS level_before,
         json_agg(json_build_array((extract(epoch FROM hour_start) * 1000)::bigint, net_change, change_unit_ms, peak_above_start,
                                   (extract(epoch FROM last_change_at) * 1000)::bigint) ORDER BY hour_start)
           FILTER (WHERE hour_start >= $4) AS hours,
         NULL::text AS now
    FROM rm_usage_hours
   WHERE project_id = $1 AND user_id = $2 AND consumer_type = $3 AND ($6::text IS NULL OR resource_class = $6)
     AND ($5::timestamptz IS NULL OR hour_start < $5)
   GROUP BY resource_class
  UNION ALL
  SELECT NULL, NULL, NULL, (extract(epoch FROM statement_timestamp()) * 1000)::bigint::text`;

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
    const now = Number(rows.find((row) => row.now !== null)!.now);
    const classes: ClassHistory[] = rows
      .filter((row) => row.resource_class !== null)
      .map((row) => ({
        resourceClass: row.resource_class!,
        levelBefore: Number(row.level_before ?? 0),
        hours: (row.hours ?? []).map(([hourStart, net, unitMs, peakAboveStart, lastChangeAt]) => ({ hourStart, net, unitMs, peakAboveStart, lastChangeAt })),
      }))
      // A class nothing held in the window or before it is not reported (unless asked for by name).
      .filter((h) => h.levelBefore !== 0 || h.hours.length > 0);
    if (scope.resourceClass !== undefined && classes.length === 0) classes.push({ resourceClass: scope.resourceClass, levelBefore: 0, hours: [] });
    classes.sort((a, b) => (a.resourceClass < b.resourceClass ? -1 : 1));
    // Open-ended: up to the end of the bucket holding now (a range starting later is empty).
    const window: UsageWindow = { start: from, end: to ?? Math.max(from, alignUp(now + 1, width)), width };
    return { window, now, classes: usageTimeline(classes, window, now) };
  }
}
