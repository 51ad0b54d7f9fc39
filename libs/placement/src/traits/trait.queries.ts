import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound } from '#domain/index.js';
import { READ_DB, ReadDb } from '../shared/read-db.js';

export interface TraitRow {
  readonly name: string;
  readonly created_at: Date | null;
  readonly updated_at: Date | null;
}

/** The filters of GET /traits, already parsed by the HTTP layer. */
export interface TraitFilters {
  readonly nameIn?: readonly string[];
  readonly prefix?: string;
  /** true: only traits some provider has; false: only traits no provider has. */
  readonly associated?: boolean;
}

export class ListTraits {
  constructor(readonly filters: TraitFilters) {}
}

export class GetTrait {
  constructor(readonly name: string) {}
}

const COLUMNS = 't.name, t.created_at, t.updated_at';
// Standard traits first, then custom ones in the order they were made, as upstream's ids run.
const ORDER = 'ORDER BY t.custom, t.created_at, t.name';

@QueryHandler(ListTraits)
export class ListTraitsHandler implements IQueryHandler<ListTraits, TraitRow[]> {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  async execute({ filters }: ListTraits): Promise<TraitRow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (filters.nameIn) where.push(`t.name = ANY(${param(filters.nameIn)}::text[])`);
    // Upstream's LIKE reads '_' and '%' in the prefix as wildcards; kept so the answers agree.
    if (filters.prefix !== undefined) where.push(`t.name LIKE ${param(`${filters.prefix}%`)}`);
    if (filters.associated !== undefined) {
      where.push(`${filters.associated ? '' : 'NOT '}EXISTS (SELECT 1 FROM rm_provider_traits pt WHERE pt.trait = t.name)`);
    }
    const { rows } = await this.db.query<TraitRow>(
      `SELECT ${COLUMNS} FROM rm_traits t ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ${ORDER}`, params);
    return rows;
  }
}

@QueryHandler(GetTrait)
export class GetTraitHandler implements IQueryHandler<GetTrait, TraitRow> {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  async execute({ name }: GetTrait): Promise<TraitRow> {
    const { rows } = await this.db.query<TraitRow>(`SELECT ${COLUMNS} FROM rm_traits t WHERE t.name = $1`, [name]);
    if (rows.length === 0) throw notFound(`No such trait(s): ${name}.`);
    return rows[0];
  }
}
