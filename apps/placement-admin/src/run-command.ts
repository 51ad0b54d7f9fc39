import { redactUrlsIn } from '#config-file/redact-url.js';
import type { AdminIo } from './admin-io.js';
import { debugRequested, errorText } from './error-text.js';

/**
 * The process side of a command: argv and env in, lines to stdout/stderr, the exit code out; a
 * crash exits with `crashCode`, its message printed (its stack only with --debug or a debug
 * LOG_LEVEL). Every line passes through URL redaction, so no command prints a password.
 */
export function runCommand(
  command: (argv: readonly string[], env: NodeJS.ProcessEnv, io: AdminIo) => Promise<number>, crashCode: number,
): void {
  // `placement-admin status | head -1` closes the pipe early: a reader that has seen enough is
  // not a failure of the command, so it ends quietly as other Unix tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
  const argv = process.argv.slice(2);
  const io: AdminIo = {
    out: (line) => process.stdout.write(`${redactUrlsIn(line)}\n`),
    err: (line) => process.stderr.write(`${redactUrlsIn(line)}\n`),
  };
  command(argv, process.env, io).then(
    (code) => { process.exitCode = code; },
    (error) => {
      io.err(errorText(error, debugRequested(argv, process.env)));
      process.exitCode = crashCode;
    },
  );
}
