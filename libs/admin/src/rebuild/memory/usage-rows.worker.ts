import { parentPort, workerData } from 'node:worker_threads';
import type { ClosedHour } from '#projections/usage-over-time/hour-moves.js';
import { ColumnTypes, UsageRowsReply, usageChunks } from './usage-rows.js';

/** usage-rows.ts's thread: closed hours in, their rows as COPY text out. */
const { types, chunkRows } = workerData as { types: ColumnTypes; chunkRows: number };

/** Bytes with a buffer of their own, so that handing them over moves them (a pooled Buffer would take its pool along). */
const own = (data: Buffer): Uint8Array =>
  (data.byteOffset === 0 && data.buffer.byteLength === data.byteLength ? data : new Uint8Array(data));

parentPort!.on('message', ({ id, hours }: { id: number; hours: ClosedHour[] }) => {
  let reply: UsageRowsReply;
  try {
    const chunks = usageChunks(hours, types, chunkRows).map((chunk) => ({ ...chunk, data: own(chunk.data) }));
    reply = { id, chunks };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.stack ?? error.message : String(error) };
  }
  parentPort!.postMessage(reply, reply.chunks?.map((chunk) => chunk.data.buffer as ArrayBuffer) ?? []);
});
