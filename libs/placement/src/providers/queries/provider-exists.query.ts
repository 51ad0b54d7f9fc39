import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProviderState, notFound, providerStream } from '#domain/index.js';
import { READ_DB, ReadDb } from '../../shared/read-db.js';
import { DeciderStates } from '../../shared/decider-states.js';

/** A write's 404 before its body is parsed, as upstream looks the provider up first. */
export class CheckProviderExists {
  constructor(readonly uuid: string) {}
}

/**
 * A provider this process last knew as active needs no read: the write that follows decides on
 * its stream, whose append checks that it is still there. Only a deletion by another process in
 * between answers differently: the command's own 404, after the body is checked.
 */
@QueryHandler(CheckProviderExists)
export class CheckProviderExistsHandler implements IQueryHandler<CheckProviderExists, void> {
  constructor(private readonly states: DeciderStates, @Inject(READ_DB) private readonly db: ReadDb) {}

  async execute({ uuid }: CheckProviderExists): Promise<void> {
    if (this.states.cached<ProviderState>(providerStream(uuid))?.state.status === 'active') return;
    const { rows } = await this.db.query('SELECT 1 FROM rm_resource_providers WHERE uuid = $1', [uuid]);
    if (rows.length === 0) throw notFound(`No resource provider with uuid ${uuid} found`);
  }
}
