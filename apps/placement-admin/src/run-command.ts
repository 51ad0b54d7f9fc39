import type { AdminIo } from './cli.js';

/** The process side of a command: argv and env in, lines to stdout/stderr, the exit code out; a crash exits with `crashCode`. */
export function runCommand(
  command: (argv: readonly string[], env: NodeJS.ProcessEnv, io: AdminIo) => Promise<number>, crashCode: number,
): void {
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
