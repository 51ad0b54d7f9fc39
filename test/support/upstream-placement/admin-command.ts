import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { SERVER_ENTRY } from '../server-process.js';

/** The built admin CLI next to the built server (`npm run build`, or TEST_SERVER_ENTRY's build). */
export const ADMIN_ENTRY = SERVER_ENTRY.replace('placement-api', 'placement-admin');

export interface AdminRun {
  readonly code: number | null;
  readonly output: string;
}

/** `placement-admin <args>` on our database, to the end (progress lines kept for the failure message). */
export function runAdmin(args: readonly string[], databaseUrl: string, timeoutMs = 5 * 60_000): Promise<AdminRun> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [ADMIN_ENTRY, ...args], {
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

/**
 * Whether the built admin CLI knows `import` and `export` yet (they are being written on another
 * branch): the part of the proof that needs them skips, saying so, until they do.
 */
export function migrationCommands(): { readonly ok: true } | { readonly ok: false; readonly reason: string } {
  if (!existsSync(ADMIN_ENTRY)) return { ok: false, reason: `${ADMIN_ENTRY} is not built (npm run build)` };
  for (const command of ['import', 'export']) {
    const run = spawnSync(process.execPath, [ADMIN_ENTRY, command, '--help'], { encoding: 'utf8', timeout: 60_000 });
    const said = `${run.stdout ?? ''}${run.stderr ?? ''}`;
    if (run.error) return { ok: false, reason: `${ADMIN_ENTRY} did not run (${run.error.message})` };
    if (run.status !== 0 || /unknown (command|option)/i.test(said)) {
      return { ok: false, reason: `the built placement-admin has no \`${command}\` yet (\`${command} --help\` said: ${said.trim().split('\n')[0] || `exit ${run.status}`})` };
    }
  }
  return { ok: true };
}
