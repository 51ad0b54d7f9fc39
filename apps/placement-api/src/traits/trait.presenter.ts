import type { TraitRow } from '#placement/traits/index.js';
import { newest } from '../platform/cache-headers.js';

export const traitUrl = (name: string) => `/traits/${name}`;

/** The names, and when they last changed (util.pick_last_modified; now when there are none). */
export function presentTraits(rows: readonly TraitRow[]) {
  return {
    body: { traits: rows.map((row) => row.name) },
    lastModified: newest(rows.map((row) => row.updated_at ?? row.created_at ?? new Date())),
  };
}
