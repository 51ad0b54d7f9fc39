import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound } from '#domain/index.js';
import { READ_DB, ReadDb } from '../shared/read-db.js';

export interface ResourceClassRow {
  readonly name: string;
  /** Built-in classes carry no timestamps, as upstream's synced rows. */
  readonly created_at: Date | null;
  readonly updated_at: Date | null;
}

/** Standard classes first in their canonical order, then custom ones as they were numbered. */
export class ListResourceClasses {}

export class GetResourceClass {
  constructor(readonly name: string) {}
}

@QueryHandler(ListResourceClasses)
class ListResourceClassesHandler implements IQueryHandler<ListResourceClasses, ResourceClassRow[]> {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  async execute(): Promise<ResourceClassRow[]> {
    const { rows } = await this.db.query<ResourceClassRow>('SELECT name, created_at, updated_at FROM rm_resource_classes ORDER BY id');
    return rows;
  }
}

@QueryHandler(GetResourceClass)
class GetResourceClassHandler implements IQueryHandler<GetResourceClass, ResourceClassRow> {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  async execute({ name }: GetResourceClass): Promise<ResourceClassRow> {
    const { rows } = await this.db.query<ResourceClassRow>(
      'SELECT name, created_at, updated_at FROM rm_resource_classes WHERE name = $1', [name]);
    if (rows.length === 0) throw notFound(`No such resource class ${name}.`);
    return rows[0];
  }
}

export const RESOURCE_CLASS_QUERY_HANDLERS = [ListResourceClassesHandler, GetResourceClassHandler];
