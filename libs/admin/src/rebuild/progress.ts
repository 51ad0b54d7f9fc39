/** How far a replay has come: events applied of the snapshot's total, and the last one's position. */
export interface ReplayProgress {
  readonly done: number;
  readonly total: number;
  readonly seconds: number;
  /** The log position (prepare part) of the last event applied; null before the first. */
  readonly position: string | null;
}

export const eventsPerSecond = (events: number, seconds: number) => (seconds > 0 ? events / seconds : 0);

export function progressFigures(progress: ReplayProgress): { percent: number; rate: number; etaSeconds: number | null } {
  const rate = eventsPerSecond(progress.done, progress.seconds);
  const percent = progress.total > 0 ? Math.min(100, (progress.done / progress.total) * 100) : 100;
  const remaining = Math.max(0, progress.total - progress.done);
  return { percent, rate, etaSeconds: remaining === 0 ? 0 : rate > 0 ? remaining / rate : null };
}

export const formatCount = (n: number) => Math.round(n).toLocaleString('en-US');

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${String(Math.round(seconds - minutes * 60)).padStart(2, '0')} s`;
}

export function formatProgress(progress: ReplayProgress): string {
  const { percent, rate, etaSeconds } = progressFigures(progress);
  const parts = [
    `${formatCount(progress.done)} / ${formatCount(progress.total)} events (${percent.toFixed(1)}%)`,
    `${formatCount(rate)} events/s`,
    `position ${progress.position ?? '-'}`,
  ];
  if (etaSeconds !== null && etaSeconds > 0) parts.push(`about ${formatDuration(etaSeconds)} left`);
  return parts.join(', ');
}

/** At most one report per interval, so a fast replay does not spend its time printing. */
export class Throttle {
  private last = -Infinity;

  constructor(private readonly intervalMs: number, private readonly now: () => number = Date.now) {}

  due(): boolean {
    const now = this.now();
    if (now - this.last < this.intervalMs) return false;
    this.last = now;
    return true;
  }
}
