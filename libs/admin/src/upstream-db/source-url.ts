import { redactUrl } from '#config-file/redact-url.js';

/**
 * The database URL an operator has in upstream's `[placement_database] connection`, in
 * SQLAlchemy's form (`mysql+pymysql://placement:secret@db/placement?charset=utf8`), or the
 * plain `mysql://` / `postgresql://` / `postgres://` forms.
 */
export interface SourceUrl {
  readonly dialect: 'mysql' | 'postgresql';
  readonly host: string;
  readonly port: number | undefined;
  readonly user: string | undefined;
  readonly password: string | undefined;
  readonly database: string;
  /** MySQL's `?unix_socket=` (SQLAlchemy's name) or PostgreSQL's `?host=/path`. */
  readonly socket: string | undefined;
  /** The URL without its password: what the log records as the import's source. */
  readonly redacted: string;
}

export class SourceUrlError extends Error {}

const DIALECTS: Record<string, SourceUrl['dialect']> = { mysql: 'mysql', mariadb: 'mysql', postgresql: 'postgresql', postgres: 'postgresql' };

export function parseSourceUrl(raw: string): SourceUrl {
  const match = /^([a-z]+)(?:\+([a-z0-9_]+))?:\/\//i.exec(raw);
  const dialect = match ? DIALECTS[match[1].toLowerCase()] : undefined;
  if (!match || !dialect) {
    throw new SourceUrlError(`not a MySQL/MariaDB or PostgreSQL database URL: ${redactUrl(raw)} `
      + '(expected e.g. mysql+pymysql://placement:secret@db/placement or postgresql+psycopg2://placement:secret@db/placement)');
  }
  let url: URL;
  try {
    // SQLAlchemy allows an empty host (a socket in the query); URL does not.
    url = new URL(`db://${raw.slice(match[0].length).replace(/^([^/]*@)?(?=\/)/, '$1localhost')}`);
  } catch {
    throw new SourceUrlError(`malformed database URL: ${redactUrl(raw)}`);
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database) throw new SourceUrlError(`the database URL names no database: ${redactUrl(raw)}`);
  const socket = url.searchParams.get(dialect === 'mysql' ? 'unix_socket' : 'host') ?? undefined;
  return {
    dialect,
    host: decodeURIComponent(url.hostname) || 'localhost',
    port: url.port ? Number(url.port) : undefined,
    user: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    database,
    socket,
    redacted: redactUrl(raw),
  };
}
