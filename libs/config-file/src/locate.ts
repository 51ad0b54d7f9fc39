import { join } from 'node:path';

/** oslo.config's command-line options, taken out of argv; the rest is the command's own. */
export interface ConfigArgs {
  readonly configFiles: readonly string[];
  readonly configDirs: readonly string[];
  readonly rest: readonly string[];
}

export class ConfigArgsError extends Error {}

const FILE_FLAGS = ['--config-file', '--config_file'];
const DIR_FLAGS = ['--config-dir', '--config_dir'];

/** `--config-file PATH` and `--config-dir DIR`, repeatable, as `--flag value` or `--flag=value`. */
export function takeConfigArgs(argv: readonly string[]): ConfigArgs {
  const configFiles: string[] = [];
  const configDirs: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const into = FILE_FLAGS.includes(flag) ? configFiles : DIR_FLAGS.includes(flag) ? configDirs : undefined;
    if (!into) { rest.push(arg); continue; }
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') throw new ConfigArgsError(`${flag} needs a value`);
    into.push(value);
  }
  return { configFiles, configDirs, rest };
}

export const DEFAULT_CONFIG_FILE = '/etc/placement/placement.conf';

/** What the file system is asked while locating files; injected so the rules are unit-tested. */
export interface FileSystemView {
  exists(path: string): boolean;
  isDirectory(path: string): boolean;
  list(dir: string): readonly string[];
}

/**
 * The files to read, in order (later ones override earlier ones), as upstream finds them: the
 * --config-file files, then every *.conf of each --config-dir in name order; with neither,
 * $OS_PLACEMENT_CONFIG_DIR/placement.conf (upstream's WSGI application reads only that), else
 * /etc/placement/placement.conf when it exists. None at all is fine: the environment configures.
 */
export function locateConfigFiles(args: Pick<ConfigArgs, 'configFiles' | 'configDirs'>, env: Readonly<Record<string, string | undefined>>, fs: FileSystemView): string[] {
  if (args.configFiles.length > 0 || args.configDirs.length > 0) {
    const missing = args.configFiles.filter((file) => !fs.exists(file));
    if (missing.length > 0) throw new ConfigArgsError(`configuration file not found: ${missing.join(', ')}`);
    const badDirs = args.configDirs.filter((dir) => !fs.isDirectory(dir));
    if (badDirs.length > 0) throw new ConfigArgsError(`configuration directory not found: ${badDirs.join(', ')}`);
    const fromDirs = args.configDirs.flatMap((dir) => fs.list(dir).filter((name) => name.endsWith('.conf')).sort().map((name) => join(dir, name)));
    return [...args.configFiles, ...fromDirs];
  }
  const dir = env.OS_PLACEMENT_CONFIG_DIR?.trim();
  if (dir) {
    const file = join(dir, 'placement.conf');
    if (!fs.exists(file)) throw new ConfigArgsError(`OS_PLACEMENT_CONFIG_DIR is ${dir}, but ${file} does not exist`);
    return [file];
  }
  return fs.exists(DEFAULT_CONFIG_FILE) ? [DEFAULT_CONFIG_FILE] : [];
}
