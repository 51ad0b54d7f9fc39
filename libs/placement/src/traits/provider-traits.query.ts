import { QueryHandler } from '@nestjs/cqrs';
import { noProvider, ProviderQuery, ProviderRowsHandler } from '../shared/provider-query.js';
import { TraitRow } from './trait.queries.js';

export interface ProviderTraits {
  readonly generation: number;
  readonly traits: TraitRow[];
}

/** GET /resource_providers/{uuid}/traits. */
export class GetProviderTraits extends ProviderQuery {}

type Joined = { generation: number } & { [K in keyof TraitRow]: TraitRow[K] | null };

@QueryHandler(GetProviderTraits)
export class GetProviderTraitsHandler extends ProviderRowsHandler<GetProviderTraits, Joined, ProviderTraits> {
  protected readonly sql = `SELECT p.generation, t.name, t.created_at, t.updated_at
         FROM rm_resource_providers p
         LEFT JOIN (rm_provider_traits pt JOIN rm_traits t ON t.name = pt.trait) ON pt.provider_uuid = p.uuid
        WHERE p.uuid = $1 ORDER BY t.custom, t.created_at, t.name`;

  /** Upstream's handler wraps the lookup's own message in its own. */
  protected override missing(uuid: string): string {
    return `${noProvider(uuid)}: ${noProvider(uuid)}`;
  }

  protected answer(rows: Joined[]): ProviderTraits {
    const traits = rows.filter((row) => row.name !== null).map(({ name, created_at, updated_at }) => ({ name, created_at, updated_at }) as TraitRow);
    return { generation: rows[0].generation, traits };
  }
}
