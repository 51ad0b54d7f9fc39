import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ADMIN = resolve(__dirname, '../../../dist/apps/placement-admin/src/main.js');

/** `placement-admin <command> --json` from the build, as an operator runs it; its exit code and parsed output. */
export async function adminJson(databaseUrl: string, command: 'verify' | 'status'): Promise<{ code: number; result: any; output: string }> {
  const env = { ...process.env, DATABASE_URL: databaseUrl };
  try {
    const { stdout } = await run(process.execPath, [ADMIN, command, '--json'], { env, timeout: 60_000, maxBuffer: 64 << 20 });
    return { code: 0, result: JSON.parse(stdout), output: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    let result: unknown;
    try { result = JSON.parse(failed.stdout ?? ''); } catch { result = undefined; }
    return { code: typeof failed.code === 'number' ? failed.code : -1, result, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}
