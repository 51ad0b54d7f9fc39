import { Inject, Injectable } from '@nestjs/common';
import { isStandardResourceClass, isStandardTrait } from '#domain/index.js';
import { unique } from '#domain/shared/unique.js';
import { READ_DB, ReadDb } from '../shared/read-db.js';

/** Facts about other streams that provider commands need, read from the read models. */
@Injectable()
export class ProviderLookups {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  exists(uuid: string): Promise<boolean> {
    return this.any('SELECT 1 FROM rm_resource_providers WHERE uuid = $1', uuid);
  }

  hasChildren(uuid: string): Promise<boolean> {
    return this.any('SELECT 1 FROM rm_resource_providers WHERE parent_provider_uuid = $1 LIMIT 1', uuid);
  }

  traitInUse(name: string): Promise<boolean> {
    return this.any('SELECT 1 FROM rm_provider_traits WHERE trait = $1 LIMIT 1', name);
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

  unknownResourceClasses(names: readonly string[]): Promise<string[]> {
    return this.unknown(names, isStandardResourceClass, 'rm_resource_classes');
  }

  unknownTraits(names: readonly string[]): Promise<string[]> {
    return this.unknown(names, isStandardTrait, 'rm_traits');
  }

  // Standard names are seeded at start and can never be deleted: only custom ones are looked up,
  // which spares most claims and inventory writes a round trip.
  private async unknown(names: readonly string[], standard: (name: string) => boolean, table: string): Promise<string[]> {
    const custom = names.filter((n) => !standard(n));
    if (custom.length === 0) return [];
    const { rows } = await this.db.query<{ name: string }>(`SELECT name FROM ${table} WHERE name = ANY($1::text[])`, [custom]);
    const known = new Set(rows.map((r) => r.name));
    return unique(custom.filter((n) => !known.has(n)));
  }

  private async any(sql: string, param: string): Promise<boolean> {
    const { rows } = await this.db.query(sql, [param]);
    return rows.length > 0;
  }
}
