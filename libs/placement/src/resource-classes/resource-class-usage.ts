import { Inject, Injectable } from '@nestjs/common';
import { READ_DB, ReadDb } from '../shared/read-db.js';

/** Whether any provider refers to a class: the fact a delete or rename must be refused on. */
@Injectable()
export class ResourceClassUsage {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  async inUse(name: string): Promise<boolean> {
    // Allocations normally imply inventory, but a class must not vanish from under either.
    const { rows } = await this.db.query(
      `SELECT 1 FROM rm_inventories WHERE resource_class = $1
       UNION ALL SELECT 1 FROM rm_allocations WHERE resource_class = $1 LIMIT 1`, [name]);
    return rows.length > 0;
  }
}
