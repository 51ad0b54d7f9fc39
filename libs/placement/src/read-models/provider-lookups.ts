import { Inject, Injectable } from '@nestjs/common';
import { isStandardResourceClass, isStandardTrait } from '#domain/index.js';
import { READ_DB, ReadDb } from '../shared/read-db.js';

/** Facts about other streams that provider commands need, read from the read models. */
@Injectable()
export class ProviderLookups {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  async exists(uuid: string): Promise<boolean> {
    const { rows } = await this.db.query('SELECT 1 FROM rm_resource_providers WHERE uuid = $1', [uuid]);
    return rows.length > 0;
  }

  async hasChildren(uuid: string): Promise<boolean> {
    const { rows } = await this.db.query('SELECT 1 FROM rm_resource_providers WHERE parent_provider_uuid = $1 LIMIT 1', [uuid]);
    return rows.length > 0;
  }

  /** The provider and all its descendants. */
  async subtree(uuid: string): Promise<string[]> {
    const { rows } = await this.db.query<{ uuid: string }>(
      `WITH RECURSIVE subtree(uuid) AS (
         SELECT $1::text UNION ALL
         SELECT p.uuid FROM rm_resource_providers p JOIN subtree s ON p.parent_provider_uuid = s.uuid)
       SELECT uuid FROM subtree`, [uuid]);
    return rows.map((r) => r.uuid);
  }

  // Standard names are seeded at start and can never be deleted: only custom ones are looked up,
  // which spares most claims and inventory writes a round trip.
  async unknownResourceClasses(names: readonly string[]): Promise<string[]> {
    const custom = names.filter((n) => !isStandardResourceClass(n));
    if (custom.length === 0) return [];
    const { rows } = await this.db.query<{ name: string }>('SELECT name FROM rm_resource_classes WHERE name = ANY($1::text[])', [custom]);
    const known = new Set(rows.map((r) => r.name));
    return custom.filter((n) => !known.has(n));
  }

  async unknownTraits(names: readonly string[]): Promise<string[]> {
    const custom = names.filter((n) => !isStandardTrait(n));
    if (custom.length === 0) return [];
    const { rows } = await this.db.query<{ name: string }>('SELECT name FROM rm_traits WHERE name = ANY($1::text[])', [custom]);
    const known = new Set(rows.map((r) => r.name));
    return [...new Set(custom.filter((n) => !known.has(n)))];
  }

  async resourceClassInUse(name: string): Promise<boolean> {
    const { rows } = await this.db.query('SELECT 1 FROM rm_inventories WHERE resource_class = $1 LIMIT 1', [name]);
    return rows.length > 0;
  }

  async traitInUse(name: string): Promise<boolean> {
    const { rows } = await this.db.query('SELECT 1 FROM rm_provider_traits WHERE trait = $1 LIMIT 1', [name]);
    return rows.length > 0;
  }
}
