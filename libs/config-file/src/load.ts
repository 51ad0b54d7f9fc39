import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { IniSyntaxError, mergeIni, parseIni } from './ini.js';
import { ConfigArgsError, FileSystemView, locateConfigFiles, takeConfigArgs } from './locate.js';
import { mapConfig } from './map-config.js';

/** Why the configuration files cannot be used; the command stops with this message (exit 2). */
export class ConfigFileError extends Error {}

export interface LoadedConfigFiles {
  /** The files read, in order. */
  readonly files: readonly string[];
  /** The process environment with the files' settings beneath it: the environment wins. */
  readonly env: NodeJS.ProcessEnv;
  /** argv without --config-file / --config-dir. */
  readonly rest: readonly string[];
  readonly warnings: readonly string[];
  readonly notices: readonly string[];
}

const realFs: FileSystemView = {
  exists: (path) => existsSync(path),
  isDirectory: (path) => existsSync(path) && statSync(path).isDirectory(),
  list: (dir) => readdirSync(dir),
};

/**
 * Reads upstream's placement.conf the way upstream finds it and returns the environment the
 * existing settings code reads (loadConfig, candidate search): every error at once, so one
 * edit of the file fixes them all.
 */
export function loadConfigFiles(argv: readonly string[], env: NodeJS.ProcessEnv): LoadedConfigFiles {
  try {
    const args = takeConfigArgs(argv);
    const files = locateConfigFiles(args, env, realFs).map((file) => resolve(file));
    const sections = mergeIni(files.map((file) => parseIni(readFileSync(file, 'utf8'), file)));
    const mapped = mapConfig({ sections, files, env, exists: realFs.exists });
    if (mapped.errors.length > 0) throw new ConfigFileError(mapped.errors.join('\n'));
    const merged: NodeJS.ProcessEnv = { ...mapped.settings };
    for (const [name, value] of Object.entries(env)) if (value !== undefined && value !== '') merged[name] = value;
    return { files, env: merged, rest: args.rest, warnings: mapped.warnings, notices: mapped.notices };
  } catch (error) {
    if (error instanceof ConfigArgsError || error instanceof IniSyntaxError) throw new ConfigFileError(error.message);
    if (error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('E')) {
      throw new ConfigFileError(`cannot read the configuration: ${error.message}`);
    }
    throw error;
  }
}

/** Puts the files' settings into process.env beneath what is there, for code that reads process.env itself. */
export function applyBeneath(target: NodeJS.ProcessEnv, loaded: LoadedConfigFiles): void {
  for (const [name, value] of Object.entries(loaded.env)) if (target[name] === undefined || target[name] === '') target[name] = value;
}
