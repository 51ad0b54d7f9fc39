import type { AdminIo } from './cli.js';

/** The process side of a command: argv and env in, lines to stdout/stderr, the exit code out; a crash exits with `crashCode`. */
export function runCommand(
  command: (argv: readonly string[], env: NodeJS.ProcessEnv, io: AdminIo) => Promise<number>, crashCode: number,
): void {
  // `placement-admin status | head -1` closes the pipe early: a reader that has seen enough is
  // not a failure of the command, so it ends quietly as other Unix tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
  command(process.argv.slice(2), process.env, {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  }).then(
    (code) => { process.exitCode = code; },
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = crashCode;
    },
  );
}
