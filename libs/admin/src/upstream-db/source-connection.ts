import { createConnection } from 'mysql2/promise';
import { Client, types } from 'pg';
import { mysqlOptions, postgresOptions } from './driver-options.js';
import { SourceQuery } from './snapshot-reader.js';
import { SourceUrl } from './source-url.js';

/** A connection holding one read-only snapshot of the source, so a serving upstream is read consistently. */
export interface SourceSnapshot {
  readonly query: SourceQuery;
  close(): Promise<void>;
}

export async function openSourceSnapshot(url: SourceUrl): Promise<SourceSnapshot> {
  return url.dialect === 'mysql' ? openMysql(url) : openPostgres(url);
}

async function openMysql(url: SourceUrl): Promise<SourceSnapshot> {
  const connection = await createConnection({ ...mysqlOptions(url), dateStrings: true, supportBigNumbers: true });
  try {
    await connection.query('SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    await connection.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
  } catch (error) {
    await connection.end().catch(() => undefined);
    throw error;
  }
  return {
    query: async <Row>(sql: string) => (await connection.query(sql))[0] as Row[],
    close: async () => { await connection.query('ROLLBACK').catch(() => undefined); await connection.end(); },
  };
}

const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;

async function openPostgres(url: SourceUrl): Promise<SourceSnapshot> {
  const client = new Client({
    ...postgresOptions(url),
    // Times as text: see sql-time.ts.
    types: { getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === TIMESTAMP || oid === TIMESTAMPTZ ? (value: string) => value : types.getTypeParser(oid, format)) as typeof types.getTypeParser },
  });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    query: async <Row>(sql: string) => (await client.query(sql)).rows as Row[],
    close: async () => { await client.query('ROLLBACK').catch(() => undefined); await client.end(); },
  };
}
