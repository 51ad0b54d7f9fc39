/**
 * Upstream's alembic revisions (placement/db/sqlalchemy/alembic/versions), oldest first. An import
 * reads any of them; an export writes the newest. A revision not listed here is a schema this
 * build has not seen, and is refused rather than read by guess.
 */
export const UPSTREAM_REVISIONS = ['b4ed3a175331', '611cd6dffd7b', 'b5c396305c25', '422ece571366', 'a082b8bb98d0'] as const;

export const LATEST_UPSTREAM_REVISION = UPSTREAM_REVISIONS[UPSTREAM_REVISIONS.length - 1];

/** consumer_types arrived with 422ece571366 (microversion 1.38). */
export const hasConsumerTypes = (revision: string) => UPSTREAM_REVISIONS.indexOf(revision as never) >= UPSTREAM_REVISIONS.indexOf('422ece571366');

export function unknownRevisionMessage(revision: string | null): string {
  return revision === null
    ? 'the source has no alembic_version row: it is not an upstream Placement database, or its schema was never created (placement-manage db sync)'
    : `the source's schema revision ${revision} is unknown to this build (known: ${UPSTREAM_REVISIONS.join(', ')}); `
      + 'upgrade Placement Ledger, or import from a database at a known revision';
}
