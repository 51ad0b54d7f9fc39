import { QueryHandler } from '@nestjs/cqrs';
import { ProviderQuery, ProviderRowsHandler } from '../../shared/provider-query.js';
import { PROVIDER_COLUMNS, ProviderRow } from './provider-row.js';

export class GetResourceProvider extends ProviderQuery {}

@QueryHandler(GetResourceProvider)
export class GetResourceProviderHandler extends ProviderRowsHandler<GetResourceProvider, ProviderRow, ProviderRow> {
  protected readonly sql = `SELECT ${PROVIDER_COLUMNS} FROM rm_resource_providers p WHERE p.uuid = $1`;

  protected answer([row]: ProviderRow[]): ProviderRow {
    return row;
  }
}
