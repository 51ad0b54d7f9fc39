import {
  ANY, ErrorType, NO_STREAM as CLIENT_NO_STREAM, WrongExpectedVersionError,
  type AppendStreamRequest, type AppendStreamState, type MultiAppendResult,
} from '@kurrent/kurrentdb-client';
import { AppendRequest, AppendResult, ExpectedRevision, NO_STREAM, WrongExpectedRevision } from '../port.js';
import { toEventData } from './event-mapping.js';
import { positionOfAppend } from './positions.js';

/** Our -1 is "must not exist yet"; a revision n means "its last event is number n", as KurrentDB's. */
export function toExpectedState(expected: ExpectedRevision): AppendStreamState {
  if (expected === 'any') return ANY;
  if (expected === NO_STREAM) return CLIENT_NO_STREAM;
  if (!Number.isSafeInteger(expected) || expected < 0) throw new RangeError(`not an expected revision: ${expected}`);
  return BigInt(expected);
}

/**
 * The server refuses a session naming one stream twice, comparing names without case; say
 * so here rather than as an obscure server error after the round trip.
 */
export function toAppendStreamRequests(requests: readonly AppendRequest[]): AppendStreamRequest[] {
  const seen = new Set<string>();
  for (const { stream } of requests) {
    const folded = stream.toLowerCase();
    if (seen.has(folded)) throw new Error(`stream ${stream} appears more than once in one KurrentDB append`);
    seen.add(folded);
  }
  return requests.map((request) => ({
    streamName: request.stream,
    expectedState: toExpectedState(request.expectedRevision),
    events: request.events.map(toEventData),
  }));
}

export function toAppendResult(result: MultiAppendResult): AppendResult {
  const revisions: Record<string, number> = {};
  for (const response of result.responses) revisions[response.streamName] = Number(response.revision);
  return { position: positionOfAppend(result.position), revisions };
}

/** A lost race on any stream of the session becomes the port's WrongExpectedRevision; the rest passes through. */
export function translateAppendError(error: unknown, requests: readonly AppendRequest[]): unknown {
  if (!isWrongExpectedVersion(error)) return error;
  const name = error.streamName;
  const request = requests.find((r) => r.stream === name)
    ?? requests.find((r) => r.stream.toLowerCase() === name?.toLowerCase())
    ?? requests[0];
  return new WrongExpectedRevision(request?.stream ?? name ?? '?', request?.expectedRevision ?? 'any');
}

// The type tag also covers a second copy of the client package, where instanceof fails.
function isWrongExpectedVersion(error: unknown): error is WrongExpectedVersionError {
  return error instanceof WrongExpectedVersionError || (error as { type?: unknown } | null)?.type === ErrorType.WRONG_EXPECTED_VERSION;
}
