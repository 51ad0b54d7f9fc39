import { redactUrlsIn } from '#config-file/redact-url.js';

/**
 * oslo's `--debug`, or LOG_LEVEL=debug or trace (placement.conf's `[DEFAULT] debug = True`
 * becomes LOG_LEVEL=debug): the operator asked for stack traces.
 */
export function debugRequested(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  const level = (env.LOG_LEVEL ?? '').toLowerCase();
  return argv.includes('--debug') || level === 'debug' || level === 'trace';
}

/**
 * An error as an operator reads it: its message, and its causes' (what the command was doing,
 * then what failed underneath); the stacks only when asked for. Never a password in a URL.
 */
export function errorText(error: unknown, debug: boolean): string {
  const lines: string[] = [];
  for (let cause: unknown = error, depth = 0; cause !== undefined && depth < 5; depth++) {
    const prefix = depth === 0 ? '' : 'caused by: ';
    if (!(cause instanceof Error)) {
      lines.push(`${prefix}${String(cause)}`);
      break;
    }
    const named = cause.name === 'Error' ? cause.message : `${cause.name}: ${cause.message}`;
    lines.push(`${prefix}${debug && cause.stack ? cause.stack : named}`);
    cause = cause.cause;
  }
  return redactUrlsIn(lines.join('\n'));
}
