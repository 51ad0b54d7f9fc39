import type { Pool, PoolClient } from 'pg';

/**
 * A pool whose connections lose their socket right at COMMIT (a message that is, or ends with,
 * COMMIT): after the server committed ('after'), or before it could ('before', the COMMIT becomes
 * a ROLLBACK). The client sees the same error either way, as node-postgres reports a socket
 * closed under a COMMIT. Its `query` (used to ask the database again) is the pool's own.
 */
export function cuttingAtCommit(pool: Pool, when: 'after' | 'before'): Pool {
  const connect = async () => {
    const client = await pool.connect();
    return new Proxy(client, {
      get(target, key) {
        if (key !== 'query') return Reflect.get(target, key);
        return async (text: unknown, ...rest: unknown[]) => {
          const run = target.query as (...args: unknown[]) => Promise<unknown>;
          if (typeof text !== 'string' || !/(^|;\n)COMMIT$/.test(text)) return run.call(target, text, ...rest);
          await run.call(target, when === 'after' ? text : text.replace(/COMMIT$/, 'ROLLBACK'));
          throw new Error('Connection terminated unexpectedly');
        };
      },
    }) as PoolClient;
  };
  return { connect, query: pool.query.bind(pool) } as unknown as Pool;
}
