import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { READ_DB, ReadDb } from '../../shared/read-db.js';
import { PROVIDER_COLUMNS, ProviderRow } from './provider-row.js';
import { ProviderFilters, providerFilterSql } from './provider-filters.js';

export class ListResourceProviders {
  constructor(readonly filters: ProviderFilters) {}
}

@QueryHandler(ListResourceProviders)
export class ListResourceProvidersHandler implements IQueryHandler<ListResourceProviders, ProviderRow[]> {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  async execute({ filters }: ListResourceProviders): Promise<ProviderRow[]> {
    const { where, params } = providerFilterSql(filters);
    const { rows } = await this.db.query<ProviderRow>(
      `SELECT ${PROVIDER_COLUMNS} FROM rm_resource_providers p ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY p.created_at, p.uuid`,
      params,
    );
    return rows;
  }
}
