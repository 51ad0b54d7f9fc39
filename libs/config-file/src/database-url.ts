import { redactUrl } from './redact-url.js';

/**
 * `[placement_database] connection` is an SQLAlchemy URL (`dialect+driver://user:pw@host/db?…`);
 * node-postgres wants `postgresql://…`. The driver is SQLAlchemy's business and goes; query
 * parameters libpq and node-postgres understand stay, the others (MySQL's `charset`, SQLAlchemy's
 * `plugin`) go, and are reported so the operator knows.
 */
export type ConnectionResult =
  | { readonly ok: true; readonly url: string; readonly dropped: readonly string[] }
  | { readonly ok: false; readonly reason: string };

/** What node-postgres reads from a connection string's query (pg-connection-string, pg's ConnectionParameters). */
const PG_PARAMETERS = new Set([
  'host', 'port', 'user', 'password', 'options', 'application_name', 'fallback_application_name', 'client_encoding',
  'ssl', 'sslmode', 'sslcert', 'sslkey', 'sslrootcert', 'sslnegotiation', 'connect_timeout', 'keepalives', 'keepalives_idle',
  'statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout', 'query_timeout',
]);

const POSTGRES_DIALECTS = new Set(['postgresql', 'postgres']);
const MYSQL_DIALECTS = new Set(['mysql', 'mariadb']);

export function toPostgresUrl(connection: string): ConnectionResult {
  const match = /^([A-Za-z][A-Za-z0-9]*)(\+[A-Za-z0-9_]+)?:\/\/(.*)$/s.exec(connection.trim());
  if (!match) return { ok: false, reason: `"${redactUrl(connection)}" is not a database URL (dialect[+driver]://user:password@host/database)` };
  const [, dialect, , rest] = match;
  if (MYSQL_DIALECTS.has(dialect.toLowerCase())) {
    return {
      ok: false,
      reason: `${dialect} is upstream Placement's store; Placement Ledger keeps its live data in PostgreSQL. `
        + 'Point connection (or DATABASE_URL) at a PostgreSQL database, and bring the data over with '
        + `\`placement-admin import --from ${redactUrl(connection)}\`, which reads MySQL`,
    };
  }
  if (!POSTGRES_DIALECTS.has(dialect.toLowerCase())) {
    return { ok: false, reason: `${dialect}:// is not supported: Placement Ledger stores its data in PostgreSQL (postgresql://…)` };
  }
  const [location, query = ''] = splitQuery(rest);
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const pair of query.split('&').filter(Boolean)) {
    const name = decodeURIComponent(pair.split('=')[0]);
    (PG_PARAMETERS.has(name) ? kept : dropped).push(PG_PARAMETERS.has(name) ? pair : name);
  }
  return { ok: true, url: `postgresql://${location}${kept.length > 0 ? `?${kept.join('&')}` : ''}`, dropped };
}

/** The query starts at the first `?` after the host: a password may not contain a raw `?` in a URL anyway. */
function splitQuery(rest: string): [string, string?] {
  const at = rest.indexOf('?');
  return at < 0 ? [rest] : [rest.slice(0, at), rest.slice(at + 1)];
}
