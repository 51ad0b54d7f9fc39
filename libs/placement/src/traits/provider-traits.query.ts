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

  async execute({ uuid }: GetProviderTraits): Promise<ProviderTraits> {
    const provider = await this.db.query<{ generation: number }>('SELECT generation FROM rm_resource_providers WHERE uuid = $1', [uuid]);
    if (provider.rows.length === 0) {
      // Upstream's handler wraps the lookup's own message in its own.
      throw notFound(`No resource provider with uuid ${uuid} found: No resource provider with uuid ${uuid} found`);
    }
    const { rows } = await this.db.query<TraitRow>(
      `SELECT t.name, t.created_at, t.updated_at FROM rm_provider_traits pt JOIN rm_traits t ON t.name = pt.trait
       WHERE pt.provider_uuid = $1 ORDER BY t.custom, t.created_at, t.name`, [uuid]);
    return { generation: provider.rows[0].generation, traits: rows };
  }
}
