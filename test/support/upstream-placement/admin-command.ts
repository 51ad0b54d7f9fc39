import { spawn } from 'node:child_process';
import { SERVER_ENTRY } from '../server-process.js';

/** The built admin CLI next to the built server (`npm run build`, or TEST_SERVER_ENTRY's build). */
export const ADMIN_ENTRY = SERVER_ENTRY.replace('placement-api', 'placement-admin');

export interface AdminRun {
  readonly code: number | null;
  readonly output: string;
}

/** `placement-admin <args>` on our database, to the end (progress lines kept for the failure message); `nodeArgs` go to node. */
export function runAdmin(args: readonly string[], databaseUrl: string, timeoutMs = 5 * 60_000, nodeArgs: readonly string[] = []): Promise<AdminRun> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...nodeArgs, ADMIN_ENTRY, ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const late = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(late);
      done({ code, output: signal ? `${output}\n(killed by ${signal})` : output });
    });
  });
}
