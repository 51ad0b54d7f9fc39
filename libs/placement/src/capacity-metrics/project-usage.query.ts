import type { ReadDb } from '../shared/read-db.js';

/** One placement_project_usage series: what a project's consumers hold of a class, over every provider. */
export interface ProjectUsageSample {
  readonly labels: { readonly project_id: string; readonly resource_class: string };
  readonly used: number;
}

/**
 * Nothing in memory knows a consumer's project (the candidate index keeps providers only, and
 * the decider-state cache holds only the consumers recently written), so this is the one SQL of a
 * scrape: a single aggregate over the allocations read model, as GET /usages sums it per project.
 */
export async function projectUsage(db: ReadDb): Promise<ProjectUsageSample[]> {
  const { rows } = await db.query<{ project_id: string; resource_class: string; used: string }>(
    `SELECT c.project_id, a.resource_class, SUM(a.used) AS used
       FROM rm_allocations a JOIN rm_consumers c ON c.uuid = a.consumer_uuid
      GROUP BY c.project_id, a.resource_class`,
  );
  return rows.map((row) => ({ labels: { project_id: row.project_id, resource_class: row.resource_class }, used: Number(row.used) }));
}
