import { ConfigFileError, loadConfigFiles } from '#config-file/index.js';

export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
}

export type CommandConfig = { readonly ok: true; readonly env: NodeJS.ProcessEnv; readonly rest: readonly string[] } | { readonly ok: false };

/**
 * The admin commands read placement.conf exactly as the server does (so `--config-file
 * /etc/placement/placement.conf db sync` finds the database), the environment winning.
 * Warnings go to stderr, keeping stdout for what scripts parse; a bad file is reported there too.
 */
export function commandConfig(argv: readonly string[], env: NodeJS.ProcessEnv, io: CommandIo): CommandConfig {
  try {
    const loaded = loadConfigFiles(argv, env);
    for (const line of loaded.warnings) io.err(`warning: ${line}`);
    return { ok: true, env: loaded.env, rest: loaded.rest };
  } catch (error) {
    if (!(error instanceof ConfigFileError)) throw error;
    for (const line of error.message.split('\n')) io.err(`configuration error: ${line}`);
    return { ok: false };
  }
}

/** The database the server would use; the commands have no embedded database to fall back on. */
export function databaseUrlOf(env: NodeJS.ProcessEnv, io: CommandIo): string | undefined {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  io.err('no database: set [placement_database] connection in placement.conf (--config-file) or DATABASE_URL');
  return undefined;
}
