import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound } from '#domain/index.js';
import { READ_DB, ReadDb } from '../../shared/read-db.js';
import { PROVIDER_COLUMNS, ProviderRow } from './provider-row.js';

export class GetResourceProvider {
  constructor(readonly uuid: string) {}
}

@QueryHandler(GetResourceProvider)
export class GetResourceProviderHandler implements IQueryHandler<GetResourceProvider, ProviderRow> {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  async execute({ uuid }: GetResourceProvider): Promise<ProviderRow> {
    const { rows } = await this.db.query<ProviderRow>(`SELECT ${PROVIDER_COLUMNS} FROM rm_resource_providers p WHERE p.uuid = $1`, [uuid]);
    if (rows.length === 0) throw notFound(`No resource provider with uuid ${uuid} found`);
    return rows[0];
  }
}
