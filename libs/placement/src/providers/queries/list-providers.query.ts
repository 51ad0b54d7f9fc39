import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProviderLookups } from '../../read-models/provider-lookups.js';
import { READ_DB, ReadDb } from '../../shared/read-db.js';
import { checkFilterNames } from './filter-names.js';
import { PROVIDER_COLUMNS, ProviderRow } from './provider-row.js';
import { ProviderFilters, providerFilterSql } from './provider-filters.js';

export class ListResourceProviders {
  constructor(readonly filters: ProviderFilters) {}
}

@QueryHandler(ListResourceProviders)
export class ListResourceProvidersHandler implements IQueryHandler<ListResourceProviders, ProviderRow[]> {
  constructor(@Inject(READ_DB) private readonly db: ReadDb, private readonly lookups: ProviderLookups) {}

  async execute({ filters }: ListResourceProviders): Promise<ProviderRow[]> {
    if (!(await checkFilterNames(this.db, this.lookups, filters))) return [];
    const { where, params } = providerFilterSql(filters);
    // Creation order, which is what upstream's id order gives its clients.
    const { rows } = await this.db.query<ProviderRow>(
      `SELECT ${PROVIDER_COLUMNS} FROM rm_resource_providers p ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY p.created_at, p.uuid`,
      params,
    );
    return rows;
  }
}
