import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { READ_DB, ReadDb } from '../shared/read-db.js';
import { ConsumerTypeScope, TypedUsageRow } from './usage-grouping.js';

export class GetTotalUsages {
  constructor(readonly projectId: string, readonly userId: string | undefined, readonly scope: ConsumerTypeScope) {}
}

/**
 * What a project's (or one user's) consumers hold, per consumer type and class, with each
 * type's distinct consumers; the HTTP layer folds the rows for its microversion.
 */
@QueryHandler(GetTotalUsages)
export class GetTotalUsagesHandler implements IQueryHandler<GetTotalUsages, TypedUsageRow[]> {
  constructor(@Inject(READ_DB) private readonly db: ReadDb) {}

  async execute({ projectId, userId, scope }: GetTotalUsages): Promise<TypedUsageRow[]> {
    const params: unknown[] = [projectId];
    const where = ['c.project_id = $1'];
    if (userId !== undefined) where.push(`c.user_id = $${params.push(userId)}`);
    if (scope.only === null) where.push('c.consumer_type IS NULL');
    else if (scope.only !== undefined) where.push(`c.consumer_type = $${params.push(scope.only)}`);
    // One statement, so the sums and the counts come from the same snapshot. Classes in id order
    // (standard classes as os-resource-classes lists them, then custom ones as created), as upstream's rows come.
    const { rows } = await this.db.query<{ consumer_type: string | null; resource_class: string; used: string; consumer_count: string }>(
      `WITH scoped AS (
         SELECT c.consumer_type, a.consumer_uuid, a.resource_class, a.used
           FROM rm_allocations a JOIN rm_consumers c ON c.uuid = a.consumer_uuid
          WHERE ${where.join(' AND ')}),
       counts AS (SELECT consumer_type, COUNT(DISTINCT consumer_uuid) AS consumers FROM scoped GROUP BY consumer_type)
       SELECT s.consumer_type, s.resource_class, SUM(s.used) AS used, MAX(n.consumers) AS consumer_count
         FROM scoped s JOIN counts n ON n.consumer_type IS NOT DISTINCT FROM s.consumer_type
         LEFT JOIN rm_resource_classes rc ON rc.name = s.resource_class
        GROUP BY s.consumer_type, s.resource_class
        ORDER BY s.consumer_type NULLS FIRST, MIN(rc.id), s.resource_class`,
      params,
    );
    return rows.map((r) => ({
      consumer_type: r.consumer_type, resource_class: r.resource_class, used: Number(r.used), consumer_count: Number(r.consumer_count),
    }));
  }
}
