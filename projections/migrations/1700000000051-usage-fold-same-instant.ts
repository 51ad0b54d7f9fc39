import { MigrationInterface, QueryRunner } from 'typeorm';
import { USAGE_FOLD, UsageFoldFunction1700000000050 } from './1700000000050-usage-fold-function.js';

/**
 * rm_usage_fold (migration 1700000000050) folding a rise at the instant of the hour's latest
 * change without recomputing the hour. The appends of one transaction share their instant (the
 * log records a transaction's events at one time), so in a boot storm of one project every claim
 * but a batch's first was such a change, and each recomputed its hour's peaks from every move of
 * the project in the hour: the database's work per claim grew with the hour's claims.
 *
 * It is exact when the change raises the level (net > 0) and the level at that instant is the
 * hour's peak: the peak is then the new level. Otherwise it is recomputed as before: a fall
 * (the instant's level may have set the peak), a rise below the peak (the level at that instant
 * may have been lowered by a fall there), or a rise that cancels the instant out (the instant
 * then moved nothing and the hour's last change is an earlier one).
 */
const LATEST_ONLY = `peak_above_start = CASE WHEN EXCLUDED.last_change_at > h.last_change_at
        THEN`;
const LATEST_OR_RISE_AT_IT = `peak_above_start = CASE WHEN EXCLUDED.last_change_at > h.last_change_at
          OR (EXCLUDED.last_change_at = h.last_change_at AND EXCLUDED.net_change > 0
            AND h.peak_above_start = h.net_change AND h.net_change + EXCLUDED.net_change <> 0)
        THEN`;

/** 1700000000050's function with that one condition widened; nothing else of it changes (1700000000052 changes it further). */
export function widened(): string {
  if (!USAGE_FOLD.includes(LATEST_ONLY)) throw new Error('rm_usage_fold of 1700000000050 no longer holds the condition this migration widens');
  return USAGE_FOLD.replace(LATEST_ONLY, LATEST_OR_RISE_AT_IT);
}

export class UsageFoldSameInstant1700000000051 implements MigrationInterface {
  name = 'UsageFoldSameInstant1700000000051';

  async up(q: QueryRunner): Promise<void> {
    await q.query(widened());
  }

  async down(q: QueryRunner): Promise<void> {
    // The function as 1700000000050 made it.
    await new UsageFoldFunction1700000000050().up(q);
  }
}
