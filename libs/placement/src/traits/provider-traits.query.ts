import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound } from '#domain/index.js';
import { READ_DB, ReadDb } from '../shared/read-db.js';
import { TraitRow } from './trait.queries.js';

export interface ProviderTraits {
  readonly generation: number;
  readonly traits: TraitRow[];
}

/** GET /resource_providers/{uuid}/traits. */
export class GetProviderTraits {
  constructor(readonly uuid: string) {}
}

@QueryHandler(GetProviderTraits)
export class GetProviderTraitsHandler implements IQueryHandler<GetProviderTraits, ProviderTraits> {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  /** One statement, so the generation and the traits come from the same snapshot (and one round trip). */
  async execute({ uuid }: GetProviderTraits): Promise<ProviderTraits> {
    const { rows } = await this.db.query<{ generation: number } & { [K in keyof TraitRow]: TraitRow[K] | null }>(
      `SELECT p.generation, t.name, t.created_at, t.updated_at
         FROM rm_resource_providers p
         LEFT JOIN (rm_provider_traits pt JOIN rm_traits t ON t.name = pt.trait) ON pt.provider_uuid = p.uuid
        WHERE p.uuid = $1 ORDER BY t.custom, t.created_at, t.name`, [uuid]);
    if (rows.length === 0) {
      // Upstream's handler wraps the lookup's own message in its own.
      throw notFound(`No resource provider with uuid ${uuid} found: No resource provider with uuid ${uuid} found`);
    }
    const traits = rows.filter((row) => row.name !== null).map(({ name, created_at, updated_at }) => ({ name, created_at, updated_at }) as TraitRow);
    return { generation: rows[0].generation, traits };
  }
}
