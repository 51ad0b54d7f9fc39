import type { SqlClient } from '#event-store/index.js';
import { STANDARD_RESOURCE_CLASSES, STANDARD_TRAITS } from '#domain/index.js';

/** Built-in names are not events; they are loaded into the read models on every start, as upstream syncs them. */
export async function seedStandardNames(db: SqlClient): Promise<void> {
  await db.query(
    `INSERT INTO rm_resource_classes (name, id, custom)
     SELECT name, ord - 1, false FROM unnest($1::text[]) WITH ORDINALITY AS t(name, ord)
     ON CONFLICT (name) DO NOTHING`,
    [STANDARD_RESOURCE_CLASSES],
  );
  await db.query(
    'INSERT INTO rm_traits (name, custom, created_at) SELECT unnest($1::text[]), false, now() ON CONFLICT (name) DO NOTHING',
    [STANDARD_TRAITS],
  );
}
