import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

/** The built admin command, relative to this file once compiled (dist/test/bench/storm). */
const ADMIN_ENTRY = resolve(__dirname, '../../../apps/placement-admin/src/main.js');

/**
 * `placement-admin export --to`: our loaded cloud written into upstream's empty database, so
 * upstream serves the same providers, uuids and generations without being loaded through its
 * API (10,000 providers take upstream most of an hour that way). Says how long it took.
 */
export async function exportTo(ourDatabaseUrl: string, upstreamDatabaseUrl: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--max-semi-space-size=128', ADMIN_ENTRY, 'export', '--to', upstreamDatabaseUrl],
    { env: { ...process.env, DATABASE_URL: ourDatabaseUrl }, stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  child.stdout.on('data', (d) => (said += d));
  child.stderr.on('data', (d) => (said += d));
  const code = await new Promise<number | null>((done) => child.on('exit', done));
  if (code !== 0) throw new Error(`placement-admin export exited ${code}:\n${said}`);
  return (performance.now() - started) / 1000;
}
