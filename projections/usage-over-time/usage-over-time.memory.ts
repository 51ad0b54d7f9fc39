import { HOUR_MS, hourOf } from './hour-summary.js';
import { ClosedHour, HourMoves } from './hour-moves.js';
import { Claim, holdingOf, Move, movesOf, SeriesChange, seriesChanges } from './usage-series.js';

/** The slice of a log event this replay reads; `revision` is counted per stream when absent. */
export interface UsageReplayEvent {
  readonly stream: string;
  readonly type: string;
  readonly data: any;
  readonly recordedAt: Date;
  readonly revision?: number;
}

/** One table's final rows, each an array in `columns` order (Dates for timestamptz, numeric as text). */
export interface UsageTableRows {
  readonly table: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
}

/** A consumer event for an hour already drained: the projection's SQL folds it into the written rows. */
export interface LateChange {
  readonly moves: readonly Move[];
  readonly changes: readonly SeriesChange[];
  readonly at: number;
}

const CONSUMERS = { table: 'rm_usage_consumers', columns: ['consumer_uuid', 'revision', 'project_id', 'user_id', 'consumer_type', 'holding'] };
const MOVES = { table: 'rm_usage_moves', columns: ['project_id', 'user_id', 'consumer_type', 'at', 'deltas'] };
const HOURS = {
  table: 'rm_usage_hours',
  columns: ['project_id', 'user_id', 'consumer_type', 'resource_class', 'hour_start', 'net_change', 'change_unit_ms', 'peak_above_start', 'last_change_at',
    'last_change_net'],
};

/**
 * The SQL projection's twin in memory, for a rebuild that replays the whole log and writes the
 * rows itself, and for verify: the same rows, because an hour row is a function of the hour's
 * moves (hour-moves.ts). Also the projection spec's model of what the tables must hold. A
 * rebuild drains the hours the log has left behind while it replays, so memory holds only the
 * last hours; a change that still comes for a drained hour is kept apart (late()).
 */
export class UsageOverTimeMemory {
  private readonly consumers = new Map<string, { revision: number; claim: Claim }>();
  private readonly hours = new Map<number, HourMoves>();
  private readonly lateChanges: LateChange[] = [];
  private newest = -Infinity;
  private drainedBefore = -Infinity;

  apply(event: UsageReplayEvent): void {
    if (event.type !== 'ConsumerAllocationsReplaced' && event.type !== 'ConsumerRemoved') return;
    const uuid = event.stream.slice('consumer-'.length);
    const known = this.consumers.get(uuid);
    const revision = event.revision ?? (known ? known.revision + 1 : 0);
    if (known && known.revision >= revision) return;
    const before = known?.claim ?? null;
    const after: Claim | null = event.type === 'ConsumerAllocationsReplaced'
      ? { projectId: event.data.project_id, userId: event.data.user_id, consumerType: event.data.consumer_type ?? null, holding: holdingOf(event.data.allocations) }
      : null;
    const charged = after ?? known?.claim;
    if (!charged) return;
    this.consumers.set(uuid, { revision, claim: after ?? { ...charged, holding: {} } });
    const at = event.recordedAt.getTime();
    const hour = hourOf(at);
    const moves = movesOf(before, after);
    if (moves.length === 0) return;
    if (hour < this.drainedBefore) {
      this.lateChanges.push({ moves, changes: seriesChanges(before, after), at });
      return;
    }
    if (at > this.newest) this.newest = at;
    let inHour = this.hours.get(hour);
    if (!inHour) this.hours.set(hour, (inHour = new HourMoves(hour)));
    for (const move of moves) inHour.add(move, at);
  }

  /**
   * The rows of every hour ending at least an hour before the newest change seen (of every hour
   * when `all`), forgotten here. A transaction that old still committing is rare, and its
   * changes then go to late().
   */
  drain(all = false): UsageTableRows[] {
    return rowsOf(this.drainHours(all).map(HourMoves.of));
  }

  /** What drain() makes rows of, as plain moves: a rebuild has another thread make the rows (usage-rows.ts). */
  drainHours(all = false): ClosedHour[] {
    const before = all ? Infinity : hourOf(this.newest) - HOUR_MS;
    if (before <= this.drainedBefore) return [];
    this.drainedBefore = before;
    const closed = [...this.hours.values()].filter((inHour) => inHour.hour < before);
    for (const inHour of closed) this.hours.delete(inHour.hour);
    return closed.map((inHour) => inHour.closed());
  }

  late(): readonly LateChange[] {
    return this.lateChanges;
  }

  /** Every row not drained yet; the consumers' rows are final only at the end of the log. */
  tables(): UsageTableRows[] {
    const consumers = [...this.consumers].map(([uuid, { revision, claim }]) =>
      [uuid, revision, claim.projectId, claim.userId, claim.consumerType, claim.holding]);
    return [{ ...CONSUMERS, rows: consumers }, ...rowsOf([...this.hours.values()])];
  }
}

/** The moves' and the hour rows of some hours. */
export function rowsOf(hours: readonly HourMoves[]): UsageTableRows[] {
  return [
    { ...MOVES, rows: hours.flatMap((inHour) => inHour.rows()) },
    { ...HOURS, rows: hours.flatMap((inHour) => inHour.hourRows()) },
  ];
}
