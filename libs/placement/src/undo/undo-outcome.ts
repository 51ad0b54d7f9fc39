import { createHash } from 'node:crypto';
import { canonicalJson, UndoPlan } from '#domain/index.js';
import type { LaterWrite } from './revert-targets.js';

/**
 * - ready: something to append and nothing stopping it;
 * - refused: a revert with later writes on its streams (not forced) or a stream it cannot take back;
 * - nothing_to_do: every stream in scope already is as it was (or is refused, for a restore).
 */
export type UndoStatus = 'ready' | 'refused' | 'nothing_to_do';

export interface UndoOutcome {
  readonly kind: 'revert' | 'restore';
  /** The request reverted, or the point restored to as the caller can quote it back. */
  readonly point: string;
  readonly plan: UndoPlan;
  /** Later writes on the streams a revert would take back, not forced: each refuses the revert. */
  readonly conflicts: readonly LaterWrite[];
  /** Later writes on streams the operator forced: taken back anyway. */
  readonly forced: readonly LaterWrite[];
  readonly status: UndoStatus;
  /** What --apply must quote back: any change in what would be appended, or why not, changes it. */
  readonly hash: string;
  readonly applied: boolean;
}

export function outcomeOf(kind: UndoOutcome['kind'], point: string, plan: UndoPlan, conflicts: LaterWrite[], forced: LaterWrite[]): UndoOutcome {
  const writes = plan.streams.some((stream) => stream.events.length > 0);
  const problems = plan.streams.some((stream) => stream.problems.length > 0);
  // A revert is the request undone as a whole; a restore takes back each stream it can.
  const status: UndoStatus = conflicts.length > 0 || (kind === 'revert' && problems) ? 'refused' : writes ? 'ready' : 'nothing_to_do';
  const hashed = {
    kind, point, status, conflicts, forced,
    streams: plan.streams.map(({ stream, events, problems: why }) => ({ stream, events, problems: why })),
  };
  const hash = createHash('sha256').update(canonicalJson(hashed)).digest('hex').slice(0, 32);
  return { kind, point, plan, conflicts, forced, status, hash, applied: false };
}
