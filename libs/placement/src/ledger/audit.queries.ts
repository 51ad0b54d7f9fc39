import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ErrorCode, notFound, providerStream } from '#domain/index.js';
import { EVENT_STORE, EventStore } from '#event-store/index.js';
import { READ_DB, ReadDb } from '../shared/read-db.js';
import { LedgerEvent, toLedgerEvent } from './ledger-event.js';
import { ProviderClaim, providerClaims } from './provider-claims.js';

/** Who a consumer belongs to now, as the read models say. */
export interface ConsumerOwner {
  readonly projectId: string;
  readonly userId: string;
  readonly consumerType: string | null;
  readonly generation: number;
}

export class GetProviderClaims {
  constructor(readonly providerUuid: string) {}
}

export interface ProviderClaimsAnswer {
  readonly generation: number;
  readonly claims: readonly (ProviderClaim & { readonly owner: ConsumerOwner | null })[];
}

/** Consumers holding something on a provider now, each with the write that began its claim (from the log). */
@QueryHandler(GetProviderClaims)
export class GetProviderClaimsHandler implements IQueryHandler<GetProviderClaims, ProviderClaimsAnswer> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore, @Inject(READ_DB) private readonly db: ReadDb) {}

  async execute({ providerUuid }: GetProviderClaims): Promise<ProviderClaimsAnswer> {
    const events = await this.store.readStream(providerStream(providerUuid));
    const { state, claims } = providerClaims(events.map(toLedgerEvent));
    if (state.status !== 'active') {
      throw notFound(`No resource provider with uuid ${providerUuid} found`, ErrorCode.RESOURCE_PROVIDER_NOT_FOUND);
    }
    const owners = await this.ownersOf(claims.map((claim) => claim.consumerUuid));
    return { generation: state.generation, claims: claims.map((claim) => ({ ...claim, owner: owners.get(claim.consumerUuid) ?? null })) };
  }

  private async ownersOf(consumers: readonly string[]): Promise<Map<string, ConsumerOwner>> {
    if (consumers.length === 0) return new Map();
    const { rows } = await this.db.query(
      'SELECT uuid, project_id, user_id, consumer_type, generation FROM rm_consumers WHERE uuid = ANY($1::text[])', [consumers]);
    return new Map(rows.map((row) => [row.uuid, {
      projectId: row.project_id, userId: row.user_id, consumerType: row.consumer_type, generation: row.generation,
    }]));
  }
}

export class GetRequestEvents {
  constructor(readonly requestId: string) {}
}

/** Every event one request wrote, in the global order. */
@QueryHandler(GetRequestEvents)
export class GetRequestEventsHandler implements IQueryHandler<GetRequestEvents, LedgerEvent[]> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ requestId }: GetRequestEvents): Promise<LedgerEvent[]> {
    return (await this.store.readRequest(requestId)).map(toLedgerEvent);
  }
}

export class GetStaleConsumers {
  /** `olderThan`: PostgreSQL interval text (see age.ts); `projectId`: only that project's consumers (null: every project's). */
  constructor(readonly olderThan: string, readonly limit: number, readonly projectId: string | null = null) {}
}

export interface StaleConsumer extends ConsumerOwner {
  readonly consumerUuid: string;
  /** RFC 3339 with microseconds: the consumer's last write. */
  readonly lastWrittenAt: string;
  readonly ageSeconds: number;
  readonly allocations: Record<string, Record<string, number>>;
}

/**
 * Consumers holding allocations that nobody has rewritten for longer than the age, oldest first.
 * Ages are measured on the database's clock, the clock that stamped the writes.
 */
@QueryHandler(GetStaleConsumers)
export class GetStaleConsumersHandler implements IQueryHandler<GetStaleConsumers, StaleConsumer[]> {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  async execute({ olderThan, limit, projectId }: GetStaleConsumers): Promise<StaleConsumer[]> {
    const { rows } = await this.db.query(
      `WITH stale AS (
         SELECT c.* FROM rm_consumers c
          WHERE c.updated_at < now() - $1::interval
            AND ($3::text IS NULL OR c.project_id = $3)
            AND EXISTS (SELECT 1 FROM rm_allocations a WHERE a.consumer_uuid = c.uuid)
          ORDER BY c.updated_at, c.uuid LIMIT $2)
       SELECT s.uuid, s.project_id, s.user_id, s.consumer_type, s.generation,
              to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS written,
              EXTRACT(EPOCH FROM now() - s.updated_at)::float8 AS age, a.provider_uuid, a.resource_class, a.used
         FROM stale s JOIN rm_allocations a ON a.consumer_uuid = s.uuid
        ORDER BY s.updated_at, s.uuid, a.provider_uuid, a.resource_class`,
      [olderThan, limit, projectId],
    );
    const consumers = new Map<string, StaleConsumer>();
    for (const row of rows) {
      let consumer = consumers.get(row.uuid);
      if (!consumer) {
        consumer = {
          consumerUuid: row.uuid, projectId: row.project_id, userId: row.user_id, consumerType: row.consumer_type,
          generation: row.generation, lastWrittenAt: row.written, ageSeconds: Math.floor(row.age), allocations: {},
        };
        consumers.set(row.uuid, consumer);
      }
      (consumer.allocations[row.provider_uuid] ??= {})[row.resource_class] = row.used;
    }
    return [...consumers.values()];
  }
}
