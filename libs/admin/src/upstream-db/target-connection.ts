import { createConnection } from 'mysql2/promise';
import { Client } from 'pg';
import { mysqlOptions, postgresOptions } from './driver-options.js';
import { SourceUrl } from './source-url.js';

/** A write transaction on an upstream-schema database, with the dialect's placeholders hidden. */
export interface TargetTransaction {
  readonly dialect: SourceUrl['dialect'];
  query<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Multi-row INSERTs of at most `chunk` rows each. */
  insert(table: string, columns: readonly string[], rows: readonly (readonly unknown[])[]): Promise<void>;
  commit(): Promise<void>;
  close(): Promise<void>;
}

const CHUNK = 1000;

export async function openTargetTransaction(url: SourceUrl): Promise<TargetTransaction> {
  if (url.dialect === 'mysql') {
    const connection = await createConnection({ ...mysqlOptions(url), timezone: 'Z' });
    // Upstream numbers the standard classes from 0, which MySQL would otherwise take as "the next id".
    await connection.query("SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO')");
    await connection.query('START TRANSACTION');
    const query = async <Row>(sql: string, params: readonly unknown[] = []) => (await connection.query(sql, params as unknown[]))[0] as Row[];
    return {
      dialect: 'mysql', query,
      insert: async (table, columns, rows) => {
        for (let i = 0; i < rows.length; i += CHUNK) {
          await connection.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ?`, [rows.slice(i, i + CHUNK)]);
        }
      },
      commit: async () => { await connection.query('COMMIT'); },
      close: async () => { await connection.query('ROLLBACK').catch(() => undefined); await connection.end(); },
    };
  }
  const client = new Client(postgresOptions(url));
  await client.connect();
  await client.query('BEGIN');
  return {
    dialect: 'postgresql',
    query: async <Row>(sql: string, params: readonly unknown[] = []) => {
      let n = 0;
      return (await client.query(sql.replace(/\?/g, () => `$${++n}`), params as unknown[])).rows as Row[];
    },
    insert: async (table, columns, rows) => {
      for (let i = 0; i < rows.length; i += CHUNK) {
        const chunk = rows.slice(i, i + CHUNK);
        let n = 0;
        const values = chunk.map((row) => `(${row.map(() => `$${++n}`).join(', ')})`).join(', ');
        await client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values}`, chunk.flat() as unknown[]);
      }
    },
    commit: async () => { await client.query('COMMIT'); },
    close: async () => { await client.query('ROLLBACK').catch(() => undefined); await client.end(); },
  };
}
