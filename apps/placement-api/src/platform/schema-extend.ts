import type { Schema } from './json-body.js';

/** Schemas are built by extension, as upstream copies and amends: v1_14 = extend(v1_0, …). */
export function extend(base: Schema, change: (copy: any) => void): Schema {
  const copy = structuredClone(base);
  change(copy);
  return copy;
}
