import type { UndoOutcome } from '#placement/undo/index.js';

/** The plan as the operator reads it (and --json gives scripts): per stream, now, then, the events to append and the problems. */
export function presentUndo(outcome: UndoOutcome, requestId: string) {
  return {
    [outcome.kind === 'revert' ? 'reverted_request_id' : 'as_of']: outcome.point,
    kind: outcome.kind,
    status: outcome.status,
    plan_hash: outcome.hash,
    applied: outcome.applied,
    // The undo's own request id: with apply, its events carry it (and it can be reverted in turn).
    request_id: requestId,
    conflicts: outcome.conflicts,
    forced: outcome.forced,
    streams: outcome.plan.streams.map((stream) => ({
      stream: stream.stream, now: stream.now, then: stream.then,
      events: stream.events.map((event) => ({ type: event.type, data: event.data })), problems: stream.problems,
    })),
  };
}
