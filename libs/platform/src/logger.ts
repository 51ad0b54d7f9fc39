import type { LoggerService } from '@nestjs/common';
import pino, { DestinationStream, Level, LogFn, Logger } from 'pino';
import { redactUrlsIn } from '#config-file/redact-url.js';
import type { LogLevel } from './config.js';

export type { Logger } from 'pino';

/**
 * Lines are written once about 2 KB of them wait (some seven request lines), and at the latest a
 * quarter second later: each write wakes a thread of libuv's pool, which on a busy small machine
 * costs the request path more than the write itself.
 */
const STDOUT = { dest: 1, sync: false, minLength: 2048, periodicFlush: 250 } as const;

/**
 * One JSON object per line: ISO time, level by name, message. Without a destination, stdout
 * through an asynchronous buffer (pino flushes it when the process exits), so a request log
 * line costs no write(2) of its own on the hot path; a silent logger opens nothing.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'placement-ledger' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // A message or an error may quote a URL (a driver's error, a setting's value): never its password.
      hooks: { logMethod: redactedArguments },
      serializers: { err: redactedError, stack: (stack: unknown) => (typeof stack === 'string' ? redactUrlsIn(stack) : stack) },
    },
    destination ?? (level === 'silent' ? { write: () => undefined } : pino.destination(STDOUT)),
  );
}

function redactedArguments(this: Logger, args: Parameters<LogFn>, method: LogFn): void {
  // Request lines quote no URL: the common call passes its arguments through untouched.
  if (!args.some((arg) => typeof arg === 'string' && arg.includes('://'))) return method.apply(this, args);
  return method.apply(this, args.map((arg) => (typeof arg === 'string' ? redactUrlsIn(arg) : arg)) as Parameters<LogFn>);
}

function redactedError(error: Error): Record<string, unknown> {
  const serialized: Record<string, unknown> = { ...pino.stdSerializers.err(error) };
  for (const [key, value] of Object.entries(serialized)) if (typeof value === 'string') serialized[key] = redactUrlsIn(value);
  return serialized;
}

/** Nest announces every module and route at start; that is debugging detail, not news. */
const FRAMEWORK_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/** Nest's own messages and every `new Logger(context)` in the app, written by pino. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = contextOf(params);
    this.write(context && FRAMEWORK_CONTEXTS.has(context) ? 'debug' : 'info', message, context);
  }

  error(message: unknown, ...params: unknown[]): void {
    const context = contextOf(params);
    // Nest passes (message, stack, context); the stack is worth keeping beside the message.
    const stack = typeof params[0] === 'string' && params[0] !== context ? params[0] : undefined;
    this.write('error', message, context, stack);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, contextOf(params));
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, contextOf(params));
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, contextOf(params));
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, contextOf(params));
  }

  private write(level: Level, message: unknown, context: string | undefined, stack?: string): void {
    if (!this.logger.isLevelEnabled(level)) return;
    if (message instanceof Error) this.logger[level]({ context, err: message }, message.message);
    else if (typeof message === 'string') this.logger[level]({ context, stack }, message);
    else this.logger[level]({ context, detail: message }, 'message');
  }
}

/** Nest appends the logger's context as the last parameter. */
function contextOf(params: unknown[]): string | undefined {
  const last = params[params.length - 1];
  return typeof last === 'string' ? last : undefined;
}
