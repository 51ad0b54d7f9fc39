import { GetUsageOverTime, UsageOverTime } from '#placement/usage-over-time/get-usage-over-time.query.js';
import { formatRfc3339 } from '#placement/usage-over-time/rfc3339.js';
import { HOUR_MS } from '#projections/usage-over-time/hour-summary.js';

/** Unit-milliseconds as unit-hours (VCPU-hours, MEMORY_MB-hours), to a millionth. */
const unitHours = (unitMs: number) => Math.round((unitMs / HOUR_MS) * 1e6) / 1e6;

function header(query: GetUsageOverTime, usage: UsageOverTime) {
  return {
    project_id: query.scope.projectId,
    user_id: query.scope.userId ?? null,
    consumer_type: query.scope.consumerType ?? null,
    bucket: usage.window.width,
    start: formatRfc3339(usage.window.start),
    end: formatRfc3339(usage.window.end),
    now: formatRfc3339(usage.now),
  };
}

/** Per class: the range's peak and integral, and each bucket's. */
export function presentUsageSeries(query: GetUsageOverTime, usage: UsageOverTime) {
  return {
    ...header(query, usage),
    resource_classes: Object.fromEntries(usage.classes.map((c) => [c.resourceClass, {
      peak: c.peak,
      integral: unitHours(c.unitMs),
      buckets: c.buckets.map((b) => ({ start: formatRfc3339(b.start), peak: b.peak, integral: unitHours(b.unitMs) })),
    }])),
  };
}

/** Per class: only the range's peak and integral. */
export function presentUsageTotals(query: GetUsageOverTime, usage: UsageOverTime) {
  return {
    ...header(query, usage),
    resource_classes: Object.fromEntries(usage.classes.map((c) => [c.resourceClass, { peak: c.peak, integral: unitHours(c.unitMs) }])),
  };
}
