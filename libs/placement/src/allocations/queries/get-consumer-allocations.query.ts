import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { READ_DB, ReadDb } from '../../shared/read-db.js';

/** One allocation line of a consumer, with what the reply shows about its provider and consumer. */
export interface ConsumerAllocationRow {
  readonly provider_uuid: string;
  readonly provider_generation: number;
  readonly resource_class: string;
  readonly used: number;
  readonly project_id: string;
  readonly user_id: string;
  readonly consumer_generation: number;
  readonly consumer_type: string | null;
  readonly created_at: Date;
  readonly updated_at: Date;
}

export class GetConsumerAllocations {
  constructor(readonly consumerUuid: string) {}
}

/**
 * A consumer that holds nothing (or never existed) has no lines: upstream cannot tell them apart.
 * Lines come in the order the consumer's last claim wrote them, as upstream's rows come back.
 */
@QueryHandler(GetConsumerAllocations)
export class GetConsumerAllocationsHandler implements IQueryHandler<GetConsumerAllocations, ConsumerAllocationRow[]> {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  async execute({ consumerUuid }: GetConsumerAllocations): Promise<ConsumerAllocationRow[]> {
    const { rows } = await this.db.query<ConsumerAllocationRow>(
      `SELECT a.provider_uuid, p.generation AS provider_generation, a.resource_class, a.used,
              c.project_id, c.user_id, c.generation AS consumer_generation, c.consumer_type, a.created_at, a.updated_at
         FROM rm_allocations a
         JOIN rm_consumers c ON c.uuid = a.consumer_uuid
         JOIN rm_resource_providers p ON p.uuid = a.provider_uuid
        WHERE a.consumer_uuid = $1
        ORDER BY a.position`,
      [consumerUuid],
    );
    return rows;
  }
}
