import { MigrationInterface, QueryRunner } from 'typeorm';

const HOURS_KEY = ['project_id', 'user_id', 'consumer_type', 'resource_class'];
const MOVES_KEY = ['project_id', 'user_id', 'consumer_type'];

const collate = (table: string, columns: string[], collation: string) =>
  `ALTER TABLE ${table} ${columns.map((c) => `ALTER COLUMN ${c} TYPE text COLLATE ${collation}`).join(', ')}`;

/**
 * The usage tables' keys compare byte by byte. Building rm_usage_hours' key (two million rows in
 * a rebuild of a million events) is the longest step after the replay, and under a locale
 * collation (C.UTF-8 included) PostgreSQL compares text with strcoll and without abbreviated
 * keys. These are identifiers, never shown in locale order: byte order is UTF-8's code point
 * order, which is also C.UTF-8's.
 */
export class UsageKeysBytewise1700000000022 implements MigrationInterface {
  name = 'UsageKeysBytewise1700000000022';

  async up(q: QueryRunner): Promise<void> {
    await q.query(collate('rm_usage_hours', HOURS_KEY, '"C"'));
    await q.query(collate('rm_usage_moves', MOVES_KEY, '"C"'));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(collate('rm_usage_hours', HOURS_KEY, '"default"'));
    await q.query(collate('rm_usage_moves', MOVES_KEY, '"default"'));
  }
}
