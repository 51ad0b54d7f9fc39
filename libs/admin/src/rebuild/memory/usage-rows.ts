import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ClosedHour, HourMoves } from '#projections/usage-over-time/hour-moves.js';
import { rowsOf } from '#projections/usage-over-time/usage-over-time.memory.js';
import { CopyChunk, copyChunks } from '../schema/copy-in.js';

/** The tables usageChunks() writes. */
export const USAGE_ROWS_TABLES = ['rm_usage_moves', 'rm_usage_hours'];

/** Each usage table's columns' SQL types, as plain data a thread can be handed. */
export type ColumnTypes = Record<string, Record<string, string>>;

/** The moves' and hour rows of closed hours as COPY text: the usage twin's share of a rebuild's formatting. */
export function usageChunks(hours: readonly ClosedHour[], types: ColumnTypes, chunkRows: number): CopyChunk[] {
  return rowsOf(hours.map(HourMoves.of))
    .filter((table) => table.rows.length > 0)
    .flatMap((table) => [...copyChunks(table, new Map(Object.entries(types[table.table])), chunkRows)]);
}

/** What the thread answers: a request's chunks, their text as bytes of their own (transferred, not copied). */
export interface UsageRowsReply {
  readonly id: number;
  readonly chunks?: readonly { table: string; columns: readonly string[]; rows: number; data: Uint8Array }[];
  readonly error?: string;
}

const WORKER_FILE = join(__dirname, 'usage-rows.worker.js');

/**
 * Makes the usage hours' rows and their COPY text on a thread of its own: a third of the
 * replay's work, done while the replay's thread goes on with the log. Run from the TypeScript
 * sources (tests) there is no compiled worker file, and the rows are made on this thread.
 */
export class UsageRowsThread {
  private readonly pending = new Map<number, { resolve(chunks: CopyChunk[]): void; reject(error: unknown): void }>();
  private next = 0;
  private failure: unknown = null;

  private constructor(private readonly worker: Worker | null, private readonly types: ColumnTypes, private readonly chunkRows: number) {
    worker?.on('message', (reply: UsageRowsReply) => this.answer(reply));
    worker?.on('error', (error) => this.fail(error));
    worker?.on('exit', () => this.fail(new Error('usage rows thread exited')));
  }

  static start(types: ColumnTypes, chunkRows: number): UsageRowsThread {
    const compiled = __filename.endsWith('.js') && existsSync(WORKER_FILE);
    return new UsageRowsThread(compiled ? new Worker(WORKER_FILE, { workerData: { types, chunkRows } }) : null, types, chunkRows);
  }

  get threaded(): boolean {
    return this.worker !== null;
  }

  chunks(hours: readonly ClosedHour[]): Promise<CopyChunk[]> {
    if (!this.worker) return Promise.resolve(usageChunks(hours, this.types, this.chunkRows));
    if (this.failure !== null) return Promise.reject(this.failure);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker!.postMessage({ id, hours });
    });
  }

  async stop(): Promise<void> {
    if (!this.worker) return;
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
    this.fail(new Error('usage rows thread stopped'));
  }

  private answer({ id, chunks, error }: UsageRowsReply): void {
    const waiting = this.pending.get(id);
    this.pending.delete(id);
    if (error !== undefined || !chunks) waiting?.reject(new Error(error));
    else waiting?.resolve(chunks.map((c) => ({ ...c, data: Buffer.from(c.data.buffer, c.data.byteOffset, c.data.byteLength) })));
  }

  private fail(error: unknown): void {
    this.failure ??= error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
