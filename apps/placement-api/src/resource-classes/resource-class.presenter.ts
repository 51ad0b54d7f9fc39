import type { ResourceClassRow } from '#placement/resource-classes/index.js';
import { newest } from '../platform/cache-headers.js';

export const resourceClassUrl = (name: string) => `/resource_classes/${name}`;

export function presentResourceClass(name: string) {
  return { name, links: [{ rel: 'self', href: resourceClassUrl(name) }] };
}

/**
 * As util.pick_last_modified: a row without timestamps (every standard class) counts as now,
 * so a list that holds one is modified now.
 */
export function lastModified(rows: readonly ResourceClassRow[]): Date | null {
  return newest(rows.map((row) => row.updated_at ?? row.created_at ?? new Date()));
}
