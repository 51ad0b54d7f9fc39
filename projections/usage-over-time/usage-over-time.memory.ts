import { hourOf, summarize } from './hour-summary.js';
import { Claim, holdingOf, SeriesKey, seriesChanges, seriesId } from './usage-series.js';
import { USAGE_OVER_TIME_EVENTS } from './usage-over-time.projection.js';

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

/**
 * The SQL projection's twin in memory, for a rebuild that replays the whole log and writes the
 * final rows once: the same rows, because every stored value is a sum of the same changes or
 * (the peaks) a function of them. Also the projection spec's model of what the tables must hold.
 */
export class UsageOverTimeMemory {
  readonly handles = USAGE_OVER_TIME_EVENTS;
  private readonly consumers = new Map<string, { revision: number; claim: Claim }>();
  private readonly series = new Map<string, { key: SeriesKey; changes: Map<number, number> }>();

  apply(event: UsageReplayEvent): void {
    if (!(USAGE_OVER_TIME_EVENTS as readonly string[]).includes(event.type)) return;
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
    this.consumers.set(uuid, { revision, claim: { ...charged, holding: after?.holding ?? {} } });
    const at = event.recordedAt.getTime();
    for (const { delta, ...key } of seriesChanges(before, after)) {
      const id = seriesId(key);
      let entry = this.series.get(id);
      if (!entry) this.series.set(id, (entry = { key, changes: new Map() }));
      entry.changes.set(at, (entry.changes.get(at) ?? 0) + delta);
    }
  }

  tables(): UsageTableRows[] {
    const consumers = [...this.consumers].map(([uuid, { revision, claim }]) =>
      [uuid, revision, claim.projectId, claim.userId, claim.consumerType, claim.holding]);
    const changes: unknown[][] = [], hours: unknown[][] = [];
    for (const { key, changes: byInstant } of this.series.values()) {
      const keyValues = [key.projectId, key.userId, key.consumerType, key.resourceClass];
      const byHour = new Map<number, { at: number; delta: number }[]>();
      for (const [at, delta] of byInstant) {
        changes.push([...keyValues, new Date(at), delta]);
        const hour = hourOf(at);
        const inHour = byHour.get(hour);
        if (inHour) inHour.push({ at, delta });
        else byHour.set(hour, [{ at, delta }]);
      }
      for (const [hour, inHour] of byHour) {
        const s = summarize(hour, inHour);
        hours.push([...keyValues, new Date(hour), s.net, s.unitMs.toString(), s.peakAboveStart, new Date(s.lastChangeAt)]);
      }
    }
    return [
      { table: 'rm_usage_consumers', columns: ['consumer_uuid', 'revision', 'project_id', 'user_id', 'consumer_type', 'holding'], rows: consumers },
      { table: 'rm_usage_changes', columns: ['project_id', 'user_id', 'consumer_type', 'resource_class', 'at', 'delta'], rows: changes },
      {
        table: 'rm_usage_hours',
        columns: ['project_id', 'user_id', 'consumer_type', 'resource_class', 'hour_start', 'net_change', 'change_unit_ms', 'peak_above_start', 'last_change_at'],
        rows: hours,
      },
    ];
  }
}
