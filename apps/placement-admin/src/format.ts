import type { AdminEvent } from '#admin/rebuild/admin-events.js';
import { formatCount, formatDuration, formatProgress } from '#admin/rebuild/progress.js';
import { hasDrift, Row, TableDiff } from '#admin/rebuild/row-diff.js';
import type { Status } from '#admin/rebuild/status.js';

/** Rows of each kind shown per table; the counts are always complete. */
export const SAMPLES = 10;

export function formatEvent(event: AdminEvent): string {
  switch (event.kind) {
    case 'step': return event.message;
    case 'replay': return `${event.final ? 'replayed' : 'replaying'} ${formatProgress(event.progress)}`;
    case 'written': return `wrote ${event.table}: ${formatCount(event.rows)} rows in ${formatDuration(event.seconds)}`;
    case 'caught-up':
      return event.locked
        ? `swapped in: ${formatCount(event.events)} last events applied while appends waited ${(event.seconds * 1000).toFixed(0)} ms`
        : `caught up ${formatCount(event.events)} events committed meanwhile (${formatDuration(event.seconds)})`;
  }
}

const show = (value: unknown) => (value instanceof Date ? value.toISOString() : JSON.stringify(value));
const showRow = (row: Row) => Object.entries(row).map(([column, value]) => `${column}=${show(value)}`).join(' ');

export function formatTableDiff(diff: TableDiff): string[] {
  const counts = `${formatCount(diff.expectedRows)} rows expected, ${formatCount(diff.actualRows)} found`;
  if (!hasDrift(diff)) return [`${diff.table}: ok (${counts})`];
  const lines = [`${diff.table}: DRIFT: ${diff.missingCount} missing, ${diff.extraCount} extra, ${diff.differentCount} different (${counts})`];
  const sample = <T>(kind: string, count: number, items: readonly T[], line: (item: T) => string) => {
    for (const item of items.slice(0, SAMPLES)) lines.push(`  ${kind} ${line(item)}`);
    if (count > SAMPLES) lines.push(`  ... and ${formatCount(count - SAMPLES)} more ${kind} rows`);
  };
  sample('missing', diff.missingCount, diff.missing, showRow);
  sample('extra', diff.extraCount, diff.extra, showRow);
  sample('different', diff.differentCount, diff.different, (d) =>
    `${showRow(d.key)}: ${d.columns.map((c) => `${c.column} expected ${show(c.expected)}, found ${show(c.actual)}`).join('; ')}`);
  return lines;
}

export function formatStatus(status: Status): string[] {
  const head = status.log.head ? `head at position ${status.log.head.position} (transaction ${status.log.head.commit})` : 'empty';
  const lines = [`log: ${formatCount(status.log.events)} events, ${head}`];
  if (!status.schemaReady) lines.push('read models: not created yet (start the server or run `rebuild` once)');
  if (status.pendingMigrations.length > 0 && status.schemaReady) lines.push(`read models: migrations pending: ${status.pendingMigrations.join(', ')}`);
  if (status.rebuildRunning) lines.push('a rebuild is running');
  for (const schema of status.leftovers) if (!status.rebuildRunning) lines.push(`left behind by an interrupted run: schema ${schema}`);
  for (const p of status.projections) {
    const at = p.checkpoint ? `position ${p.checkpoint.position} (transaction ${p.checkpoint.commit})` : 'nothing applied';
    const rebuilt = p.rebuiltAt
      ? `; rebuilt ${p.rebuiltAt.toISOString()} from ${formatCount(p.rebuiltEvents ?? 0)} events in ${formatDuration(p.rebuildSeconds ?? 0)}`
      : '';
    lines.push(`${p.name}: ${p.mode}, at ${at}, lag ${formatCount(p.lag)} events${rebuilt}`);
  }
  return lines;
}
