import { ErrorCode } from '#domain/index.js';
import { GetUsageOverTime } from '#placement/usage-over-time/get-usage-over-time.query.js';
import { parseRfc3339 } from '#placement/usage-over-time/rfc3339.js';
import { BucketWidth } from '#placement/usage-over-time/usage-timeline.js';
import { httpBadRequest } from '../platform/placement-error.js';
import { validateQueryParams } from '../platform/query-params/query-string.js';
import { USAGE_OVER_TIME_QUERY } from './usage-over-time.schemas.js';

/** A little over a year of hours (9,600 per class) bounds one answer's size and cost. */
const MAX_RANGE_DAYS = 400;
const DAY_MS = 86_400_000;

const badValue = (detail: string) => httpBadRequest(detail, ErrorCode.QUERYPARAM_BAD_VALUE);

function time(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseRfc3339(text);
  if (ms === undefined) throw badValue(`Invalid query string parameters: '${name}' is not an RFC 3339 time (e.g. 2026-03-01T00:00:00Z). Got: ${text}`);
  return ms;
}

/** The query string -> the query; `now` only bounds an open range's length. */
export function parseUsageOverTime(query: URLSearchParams, now: number): GetUsageOverTime {
  const single = validateQueryParams(query, USAGE_OVER_TIME_QUERY);
  const start = time('start', single.start)!;
  const end = time('end', single.end);
  if (end !== undefined && end <= start) throw badValue(`Invalid query string parameters: 'end' (${single.end}) must be later than 'start' (${single.start})`);
  if ((end ?? now) - start > MAX_RANGE_DAYS * DAY_MS) {
    throw badValue(`Invalid query string parameters: the range from 'start' to 'end' (or now) may not exceed ${MAX_RANGE_DAYS} days`);
  }
  const consumerType = single.consumer_type === 'all' ? undefined : single.consumer_type;
  return new GetUsageOverTime(
    { projectId: single.project_id, userId: single.user_id, consumerType, resourceClass: single.resource_class },
    start, end, (single.bucket as BucketWidth | undefined) ?? 'hour',
  );
}
