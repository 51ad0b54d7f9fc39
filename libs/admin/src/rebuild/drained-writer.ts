import type { MemoryReplaySet } from './memory/memory-replays.js';
import type { UsageRowsThread } from './memory/usage-rows.js';
import type { Draining } from './replay.js';
import type { BulkLoader } from './schema/bulk-load.js';

/** Closed hours handed to the usage rows thread and not queued for copying yet: enough to keep it busy, not to pile up. */
const MAX_IN_FLIGHT = 2;

/**
 * Writes what a replay drains: the core's rows at once, closed usage hours through the usage
 * rows thread, whose chunks are queued for copying in the order the thread answers.
 */
export class DrainedWriter implements Draining {
  readonly hoursApart = true;
  /** Every table rows were queued for. */
  readonly tables = new Set<string>();
  private readonly inFlight: Promise<void>[] = [];

  constructor(private readonly loader: BulkLoader, private readonly thread: UsageRowsThread) {}

  async write(memory: MemoryReplaySet): Promise<void> {
    await this.take(memory, false);
    while (this.inFlight.length > MAX_IN_FLIGHT) await this.inFlight.shift();
    await this.loader.room();
  }

  /**
   * The log has ended: everything left to drain, queued for copying once the thread has made it,
   * without waiting for the copies (the tables' indexes are queued right behind them).
   */
  async finish(memory: MemoryReplaySet): Promise<void> {
    await this.take(memory, true);
    while (this.inFlight.length > 0) await this.inFlight.shift();
  }

  private async take(memory: MemoryReplaySet, all: boolean): Promise<void> {
    const drained = memory.takeDrained(all).filter((table) => table.rows.length > 0);
    for (const table of drained) this.tables.add(table.table);
    if (drained.length > 0) await this.loader.write(drained, !all);
    const hours = memory.takeDrainedHours();
    if (hours.length === 0) return;
    const queued = this.thread.chunks(hours).then((chunks) => {
      for (const chunk of chunks) this.tables.add(chunk.table);
      this.loader.writeChunks(chunks);
    });
    // Awaited in turn; a failure meanwhile must not count as unhandled.
    queued.catch(() => undefined);
    this.inFlight.push(queued);
  }
}
