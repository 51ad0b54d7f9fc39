import { send, type AppendedEvent, type SqlClient } from '#event-store/index.js';
import { Projection } from '../runner/projection.js';
import { factTime } from '../runner/fact-time.js';
import { AllocationOrder, orderedLines } from '#domain/consumer/index.js';
import { replayAllocationEvent } from './allocations.memory.js';

type Allocations = Record<string, Record<string, number>>;

const consumerOf = (event: AppendedEvent) => event.stream.slice('consumer-'.length);
const providerOf = (event: AppendedEvent) => event.stream.slice('provider-'.length);

/**
 * rm_consumers and rm_allocations from the consumer streams (each event carries the consumer's
 * whole set), and the generation of every provider a claim moved, from the provider streams.
 */
export const allocationsProjection: Projection = {
  name: 'allocations',
  handles: ['ConsumerAllocationsReplaced', 'ConsumerRemoved', 'ProviderAllocationsChanged'],
  twin: { memory: 'core', apply: replayAllocationEvent },
  async apply(tx: SqlClient, event: AppendedEvent<any>) {
    const at = factTime(event);
    switch (event.type) {
      case 'ConsumerAllocationsReplaced': {
        const uuid = consumerOf(event);
        const { project_id, user_id, consumer_type, generation } = event.data;
        await send(tx,
          `INSERT INTO rm_consumers (uuid, project_id, user_id, consumer_type, generation, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $6)
           ON CONFLICT (uuid) DO UPDATE SET project_id = EXCLUDED.project_id, user_id = EXCLUDED.user_id,
             consumer_type = EXCLUDED.consumer_type, generation = EXCLUDED.generation, updated_at = EXCLUDED.updated_at`,
          [uuid, project_id, user_id, consumer_type, generation, at]);
        return replaceAllocations(tx, uuid, event.data.allocations, event.data.written_order, at);
      }
      case 'ConsumerRemoved': {
        const uuid = consumerOf(event);
        await send(tx, 'DELETE FROM rm_allocations WHERE consumer_uuid = $1', [uuid]);
        await send(tx, 'DELETE FROM rm_consumers WHERE uuid = $1', [uuid]);
        return;
      }
      case 'ProviderAllocationsChanged':
        // A release upstream does not count (DELETE, a provider left behind by a move) keeps updated_at too.
        // Generations only grow: the providers projection may already have applied a later event of this append.
        await send(tx,
          'UPDATE rm_resource_providers SET generation = $2, updated_at = $3 WHERE uuid = $1 AND generation < $2',
          [providerOf(event), event.data.generation, at]);
        return;
    }
  },
};

/**
 * Upstream deletes and re-inserts a consumer's rows on every write, so created_at is the write's
 * time; position numbers the rows in the order the claim wrote them (written_order), the order
 * upstream lists them in.
 */
async function replaceAllocations(tx: SqlClient, consumer: string, allocations: Allocations, order: AllocationOrder | undefined, at: Date) {
  await send(tx, 'DELETE FROM rm_allocations WHERE consumer_uuid = $1', [consumer]);
  const lines = orderedLines(allocations, order);
  if (lines.length === 0) return;
  await send(tx,
    `INSERT INTO rm_allocations (consumer_uuid, provider_uuid, resource_class, used, position, created_at, updated_at)
     SELECT $1::text, l.provider, l.rc, l.used, l.position - 1, $5::timestamptz, $5::timestamptz
       FROM unnest($2::text[], $3::text[], $4::int[]) WITH ORDINALITY AS l(provider, rc, used, position)`,
    [consumer, lines.map((l) => l.provider), lines.map((l) => l.resourceClass), lines.map((l) => l.used), at]);
}
