import { ConfigError } from '#platform/config.js';

export const SERVER_USAGE = `usage: placement-api [--config-file PATH]... [--config-dir DIR]... [--host ADDRESS] [--port PORT]

Serves the Placement API. Configuration: upstream's placement.conf (--config-file, --config-dir;
else $OS_PLACEMENT_CONFIG_DIR/placement.conf, else /etc/placement/placement.conf when it exists),
then the environment (README: Configuration), then --host and --port.`;

/**
 * The server's own flags, after --config-file/--config-dir are taken out: --host and --port, which
 * upstream leaves to its WSGI server (uwsgi's http-socket, mod_wsgi's Listen), so the image can
 * bind kolla's 8780 or helm's 8778 without an environment. They win over PORT/HOST and the files.
 */
export function serverArgs(argv: readonly string[]): { readonly env: Record<string, string>; readonly help: boolean } {
  const env: Record<string, string> = {};
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') { help = true; continue; }
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const name = flag === '--port' ? 'PORT' : flag === '--host' ? 'HOST' : undefined;
    if (!name) throw new ConfigError(`unknown argument "${arg}"\n${SERVER_USAGE}`);
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') throw new ConfigError(`${flag} needs a value`);
    env[name] = value;
  }
  return { env, help };
}
