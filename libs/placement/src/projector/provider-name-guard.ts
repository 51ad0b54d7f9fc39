import type { InlineProjector } from '../../../event-store/src/index.js';

const NAMING = ['ResourceProviderCreated', 'ResourceProviderUpdated'];
const STREAM_PREFIX = 'provider-';

/**
 * With asynchronous projections the read model's unique name no longer checks a creation in
 * its own transaction, and two processes creating one name at once would both succeed, leaving
 * the projector stuck at the second. This check takes its place inside the append: naming
 * appends take turns on one transaction lock, then look for the name in the projected rows and
 * in the events the projector has not reached yet (committed by an earlier turn). It fails the
 * way the unique key did, so the handlers answer upstream's 409 as before.
 */
export function providerNameGuard(): InlineProjector {
  return async (tx, events) => {
    const named = events.filter((event) => NAMING.includes(event.type) && typeof event.data.name === 'string');
    if (named.length === 0) return;
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('placement: provider names'))");
    for (const event of named) {
      const { rows } = await tx.query(
        `SELECT 1 FROM rm_resource_providers WHERE name = $1 AND uuid <> $2
         UNION ALL
         (SELECT 1 FROM es_events e, rm_projection_checkpoints c
          WHERE c.projection = 'providers' AND (e.transaction_id, e.position) > (c.commit_xid, c.position)
            AND e.type = ANY($3::text[]) AND e.data->>'name' = $1 AND e.stream_id <> $4 LIMIT 1)
         LIMIT 1`,
        [event.data.name, event.stream.slice(STREAM_PREFIX.length), NAMING, event.stream]);
      if (rows.length > 0) throw Object.assign(new Error(`provider name ${String(event.data.name)} is taken`), { code: '23505', constraint: 'rm_resource_providers_name' });
    }
  };
}
