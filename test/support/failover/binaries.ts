import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Debian's server binaries (postgresql-NN), newest first: initdb, pg_ctl, pg_basebackup. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, 'bin')).find((dir) => ['initdb', 'pg_ctl', 'pg_basebackup'].every((b) => existsSync(join(dir, b))));
}

export function haproxyBinary(): string | undefined {
  for (const candidate of ['/usr/sbin/haproxy', '/usr/bin/haproxy']) if (existsSync(candidate)) return candidate;
  return undefined;
}

/** Why the failover test cannot run here, or undefined when it can. */
export function missingForFailover(): string | undefined {
  const missing: string[] = [];
  if (!postgresBinDir()) missing.push('PostgreSQL server binaries (/usr/lib/postgresql/*/bin; apt-get install postgresql)');
  if (!haproxyBinary()) missing.push('haproxy (apt-get install haproxy)');
  // The server refuses to run as root: the clusters run as the postgres account.
  try {
    execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
  } catch {
    missing.push('a postgres account to run the clusters as');
  }
  return missing.length ? missing.join(', ') : undefined;
}
