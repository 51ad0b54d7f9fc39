import type { EventMetadata } from '../port.js';

/**
 * KurrentDB's multi-stream append takes event metadata as a map of string values only, and
 * keys starting with '$' belong to the server (it adds `$schema.name`, `$schema.format`).
 * Our metadata holds arrays (roles), nulls (no project) and numbers, so every value that is
 * not a plain string travels JSON-encoded under a prefixed key, and so does a string whose
 * own key would be ambiguous (starting with the prefix or with '$'). Decoding undoes exactly
 * that and drops the server's '$' properties.
 */
const JSON_KEY_PREFIX = 'json:';

export type StringMetadata = Record<string, string>;

export function encodeMetadata(metadata: EventMetadata | undefined): StringMetadata {
  const encoded: StringMetadata = {};
  for (const [key, value] of Object.entries(metadata ?? {})) {
    // JSON.stringify drops undefined members too; the PostgreSQL store stores the same shape.
    if (value === undefined) continue;
    const plain = typeof value === 'string' && !key.startsWith(JSON_KEY_PREFIX) && !key.startsWith('$');
    if (plain) encoded[key] = value;
    else encoded[JSON_KEY_PREFIX + key] = JSON.stringify(value);
  }
  return encoded;
}

/** Reads what the client parsed from the stored metadata: an object, raw bytes, or nothing. */
export function decodeMetadata(stored: unknown): EventMetadata {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored) || stored instanceof Uint8Array) return {};
  const decoded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(stored as Record<string, unknown>)) {
    if (key.startsWith('$')) continue;
    if (key.startsWith(JSON_KEY_PREFIX) && typeof value === 'string') decoded[key.slice(JSON_KEY_PREFIX.length)] = parseOr(value);
    else decoded[key] = value;
  }
  return decoded;
}

/** Another writer may have used our prefix for a value of its own: keep that value as it is. */
function parseOr(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
