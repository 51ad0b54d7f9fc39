import { ErrorType, UnsupportedError } from '@kurrent/kurrentdb-client';
// Connection strings may carry a password (kurrentdb://admin:changeit@host): never print it.
import { redactUrl } from '#config-file/redact-url.js';
import { KurrentClient } from './kurrent-client.js';

/** Why the service must not start on this KurrentDB; the message is meant for the operator. */
export class KurrentCapabilityError extends Error {}

export interface ProbeOptions {
  /** Named in messages (without its password). */
  readonly url: string;
  readonly timeoutMs?: number;
}

// gRPC status codes, for errors the client passes through without its own class.
const DEADLINE_EXCEEDED = 4, PERMISSION_DENIED = 7, UNIMPLEMENTED = 12, UNAVAILABLE = 14, UNAUTHENTICATED = 16;

/**
 * Proves the server has the atomic multi-stream append (KurrentDB 25.1+) by opening an append
 * session with no streams in it: the client first asks the server which calls it supports and
 * throws UnsupportedError when this one is missing; a server that has it refuses the empty
 * session itself, and writes nothing either way. Without that append a claim touching a
 * consumer and several providers could be half written, so the caller must not start.
 */
export async function assertMultiStreamAppend(client: Pick<KurrentClient, 'multiStreamAppend'>, options: ProbeOptions): Promise<void> {
  const where = `KurrentDB at ${redactUrl(options.url)}`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), timeoutMs); });
  let failure: Error | undefined;
  try {
    const outcome = await Promise.race([client.multiStreamAppend([]).then(() => 'answered' as const), timeout]);
    if (outcome === 'timeout') failure = new KurrentCapabilityError(`${where} did not answer within ${timeoutMs / 1000} s`);
  } catch (error) {
    // Unclassified: the error came from the append session itself, which only a 25.1+ server runs.
    failure = classify(error, where);
  } finally {
    clearTimeout(timer);
  }
  if (failure) throw failure;
}

function classify(error: unknown, where: string): Error | undefined {
  const { type, code, message } = (error ?? {}) as { type?: unknown; code?: unknown; message?: unknown };
  const detail = typeof message === 'string' ? message : String(error);
  if (error instanceof UnsupportedError || type === ErrorType.UNSUPPORTED || code === UNIMPLEMENTED) {
    return new KurrentCapabilityError(
      `${where} has no atomic multi-stream append (it needs KurrentDB 25.1 or later): a claim writes to several ` +
      'streams at once and must stay atomic, so the service refuses to start rather than write claims stream by stream. ' +
      'Upgrade the server to KurrentDB 25.1 or later.',
    );
  }
  if (type === ErrorType.UNAVAILABLE || type === ErrorType.DEADLINE_EXCEEDED || code === UNAVAILABLE || code === DEADLINE_EXCEEDED) {
    return new KurrentCapabilityError(`cannot reach ${where}: ${detail}`);
  }
  if (type === ErrorType.ACCESS_DENIED || code === UNAUTHENTICATED || code === PERMISSION_DENIED) {
    return new KurrentCapabilityError(`${where} refused the connection's credentials: ${detail}`);
  }
  return undefined;
}
