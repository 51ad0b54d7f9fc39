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

/**
 * The standard traits come from os-traits: Debian's python3-placement 8.0.0 syncs an older
 * catalogue than ours ships, so GET /traits lists standard names on one side only. A difference
 * made only of such names, none of them custom, is the catalogue's version, not the move.
 */
export const standardTraitCatalogue: Tolerance = (asked, left, right) => {
  if (!asked.path.startsWith('/traits') || left.status !== 200 || right.status !== 200) return undefined;
  const [l, r] = [new Set<string>(left.body?.traits ?? []), new Set<string>(right.body?.traits ?? [])];
  const apart = [...l].filter((t) => !r.has(t)).concat([...r].filter((t) => !l.has(t)));
  return apart.length > 0 && apart.every((t) => !t.startsWith('CUSTOM_'))
    ? `os-traits catalogues differ by ${apart.length} standard traits`
    : undefined;
};

/** Every tolerance the proof applies when one side is upstream 8.0.0. */
export const upstreamKnownDifferences: Tolerance = (asked, left, right) =>
  upstreamPostgresUsagesBug(asked, left, right) ?? standardTraitCatalogue(asked, left, right);
