import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createConnection } from 'mysql2/promise';
import { Client } from 'pg';
import { ADMIN_URL } from './database.js';

/** MariaDB/MySQL where the tests create upstream-schema databases: root over the local socket, as Debian sets it up. */
export const MYSQL_ADMIN = { socketPath: process.env.TEST_MYSQL_SOCKET ?? '/run/mysqld/mysqld.sock', user: 'root' };

export type Dialect = 'mysql' | 'postgresql';

/**
 * Whether the MariaDB/MySQL tests can run here: its socket exists. A developer's machine without
 * MariaDB skips them, saying so; CI (CI=true), whose .ci/run installs and starts MariaDB, runs them
 * regardless, so a MariaDB that went missing there fails instead of skipping.
 */
export function mysqlAvailability(): { ok: true } | { ok: false; reason: string } {
  if (process.env.CI === 'true' || existsSync(MYSQL_ADMIN.socketPath)) return { ok: true };
  return { ok: false, reason: `no MariaDB/MySQL socket at ${MYSQL_ADMIN.socketPath} (TEST_MYSQL_SOCKET)` };
}

export interface UpstreamDatabase {
  /** As upstream's placement.conf writes it: mysql+pymysql://... or postgresql+psycopg2://... */
  readonly url: string;
  query<Row = Record<string, unknown>>(sql: string): Promise<Row[]>;
  drop(): Promise<void>;
}

/**
 * upstream Placement's tables as its alembic migrations leave them at `revision` (columns and
 * keys that matter to a reader; written from its models, not copied), in a new database.
 */
function upstreamDdl(dialect: Dialect, revision: string): string[] {
  const id = dialect === 'mysql' ? 'id INTEGER NOT NULL AUTO_INCREMENT PRIMARY KEY' : 'id SERIAL PRIMARY KEY';
  const time = dialect === 'mysql' ? 'DATETIME' : 'TIMESTAMP WITHOUT TIME ZONE';
  const float = dialect === 'mysql' ? 'FLOAT' : 'DOUBLE PRECISION';
  const stamps = `created_at ${time} NULL, updated_at ${time} NULL`;
  const typed = revision === '422ece571366' || revision === 'a082b8bb98d0';
  return [
    'CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY)',
    `INSERT INTO alembic_version VALUES ('${revision}')`,
    `CREATE TABLE resource_classes (${stamps}, ${id}, name VARCHAR(255) NOT NULL UNIQUE)`,
    `CREATE TABLE traits (${stamps}, ${id}, name VARCHAR(255) NOT NULL UNIQUE)`,
    `CREATE TABLE projects (${stamps}, ${id}, external_id VARCHAR(255) NOT NULL UNIQUE)`,
    `CREATE TABLE users (${stamps}, ${id}, external_id VARCHAR(255) NOT NULL UNIQUE)`,
    ...(typed ? [`CREATE TABLE consumer_types (${stamps}, ${id}, name VARCHAR(255) NOT NULL UNIQUE)`] : []),
    `CREATE TABLE placement_aggregates (${stamps}, ${id}, uuid VARCHAR(36) UNIQUE)`,
    `CREATE TABLE resource_providers (${stamps}, ${id}, uuid VARCHAR(36) NOT NULL UNIQUE, name VARCHAR(200) UNIQUE,
       generation INTEGER, root_provider_id INTEGER NOT NULL, parent_provider_id INTEGER)`,
    `CREATE TABLE inventories (${stamps}, ${id}, resource_provider_id INTEGER NOT NULL, resource_class_id INTEGER NOT NULL,
       total INTEGER NOT NULL, reserved INTEGER NOT NULL, min_unit INTEGER NOT NULL, max_unit INTEGER NOT NULL,
       step_size INTEGER NOT NULL, allocation_ratio ${float} NOT NULL, UNIQUE (resource_provider_id, resource_class_id))`,
    `CREATE TABLE resource_provider_traits (${stamps}, trait_id INTEGER NOT NULL, resource_provider_id INTEGER NOT NULL,
       PRIMARY KEY (trait_id, resource_provider_id))`,
    `CREATE TABLE resource_provider_aggregates (${stamps}, resource_provider_id INTEGER NOT NULL, aggregate_id INTEGER NOT NULL,
       PRIMARY KEY (resource_provider_id, aggregate_id))`,
    `CREATE TABLE consumers (${stamps}, ${id}, uuid VARCHAR(36) NOT NULL UNIQUE, project_id INTEGER NOT NULL, user_id INTEGER NOT NULL,
       generation INTEGER NOT NULL DEFAULT 0${typed ? ', consumer_type_id INTEGER NULL' : ''})`,
    `CREATE TABLE allocations (${stamps}, ${id}, resource_provider_id INTEGER NOT NULL, consumer_id VARCHAR(36) NOT NULL,
       resource_class_id INTEGER NOT NULL, used INTEGER NOT NULL)`,
    'CREATE INDEX allocations_consumer_id_idx ON allocations (consumer_id)',
  ];
}

/** A throw-away database with upstream's schema at `revision` (default: Placement 8.0's). */
export async function createUpstreamShapedDatabase(dialect: Dialect, revision = '422ece571366'): Promise<UpstreamDatabase> {
  const name = `up_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const database = dialect === 'mysql' ? await mysqlDatabase(name) : await postgresDatabase(name);
  for (const statement of upstreamDdl(dialect, revision)) await database.query(statement);
  return database;
}

async function mysqlDatabase(name: string): Promise<UpstreamDatabase> {
  const admin = await createConnection(MYSQL_ADMIN);
  await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
  const connection = await createConnection({ ...MYSQL_ADMIN, database: name, dateStrings: true });
  // Upstream numbers standard classes from 0 and sets this mode to write id 0 as 0.
  await connection.query("SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO')");
  return {
    url: `mysql+pymysql://root@/${name}?unix_socket=${MYSQL_ADMIN.socketPath}`,
    query: async <Row>(sql: string) => (await connection.query(sql))[0] as Row[],
    drop: async () => {
      await connection.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    },
  };
}

async function postgresDatabase(name: string): Promise<UpstreamDatabase> {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  return {
    url: url.toString().replace(/^postgres(ql)?:/, 'postgresql+psycopg2:'),
    query: async <Row>(sql: string) => (await client.query(sql)).rows as Row[],
    drop: async () => {
      await client.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
