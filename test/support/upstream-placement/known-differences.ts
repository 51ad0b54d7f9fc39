import { Tolerance } from './compare-servers.js';

/**
 * Upstream Placement 8.0.0 on PostgreSQL answers 500 to GET /usages at 1.38+: its query selects
 * allocations.resource_class_id but groups by consumer type only (psycopg2 GroupingError;
 * MariaDB and SQLite accept it; still so on master). A server that answers 200 there is right,
 * so that difference is reported apart and does not fail the proof.
 */
export const upstreamPostgresUsagesBug: Tolerance = (asked, left, right) => {
  if (!asked.path.startsWith('/usages') || Number(asked.version.split('.')[1]) < 38) return undefined;
  const grouping = (body: unknown) => JSON.stringify(body ?? '').includes('GroupingError');
  return (left.status === 500 && grouping(left.body)) || (right.status === 500 && grouping(right.body))
    ? 'upstream 8.0.0 on PostgreSQL: GET /usages at 1.38+ fails with a GROUP BY error'
    : undefined;
};
