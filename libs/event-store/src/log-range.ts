import { comparePositions, EventStore, GlobalFilter, LogPosition, RecordedEvent } from './port.js';

/** How long a range waits for a writer still committing below its end before it gives up. */
const STALLED_MS = 120_000;

/**
 * The global order strictly after `from` up to `until` (a position the store named: a head, an
 * event's), in batches of at most `size`, the next one read while the caller applies one. It
 * ends with the event at `until`: a store that reads gap-free (PostgreSQL) may answer short, or
 * empty, while a writer below `until` is still committing, and the range waits for it.
 */
export async function* readLogRange(
  store: EventStore, from: LogPosition, until: LogPosition, size: number, options: { readonly metadata?: false } = {},
): AsyncGenerator<RecordedEvent[]> {
  const filter = { until: { position: until }, ...options };
  let cursor = from;
  const next = () => comparePositions(cursor, until) >= 0 ? Promise.resolve(null) : readSome(store, cursor, size, filter);
  let pending = next();
  for (;;) {
    const batch = await pending;
    if (batch === null) return;
    cursor = batch[batch.length - 1].position;
    pending = next();
    yield batch;
  }
}

async function readSome(store: EventStore, from: LogPosition, size: number, filter: GlobalFilter & { until: { position: LogPosition } }): Promise<RecordedEvent[]> {
  const started = Date.now();
  for (let wait = 5; ; wait = Math.min(wait * 2, 500)) {
    const batch = await store.readAll(from, size, filter);
    if (batch.length > 0) return batch;
    if (Date.now() - started > STALLED_MS) {
      throw new Error(`the log holds nothing readable after ${from.commit}/${from.prepare} up to ${filter.until.position.commit}/${filter.until.position.prepare} `
        + `after ${STALLED_MS / 1000} s: a writer is still committing below it, or the position is not the log's`);
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
