import { excludeSystemEvents, type AllStreamResolvedEvent } from '@kurrent/kurrentdb-client';
import { LogPosition, RecordedEvent, Subscription, comparePositions } from '../port.js';
import { toRecordedEvent } from './event-mapping.js';
import { KurrentClient } from './kurrent-client.js';
import { toLogPosition, toReadPosition } from './positions.js';
import { readBatches } from './readable-batches.js';

export interface CatchUpHandlers {
  /** Called in global order, one call at a time; the next batch waits for this one. */
  readonly onEvents: (events: RecordedEvent[]) => Promise<void>;
  /**
   * The server has read (and filtered out) everything up to this position, and every event
   * before it has been through onEvents: safe to store as a checkpoint. It moves a consumer
   * past a stretch of system or foreign events it would otherwise never hear about.
   */
  readonly onCheckpoint?: (position: LogPosition) => Promise<void>;
  /** A dropped connection or a failed handler; the subscription resumes after the last handled position. */
  readonly onError?: (error: unknown, resumeFrom: LogPosition) => void;
}

export interface CatchUpOptions {
  /** Server checkpoints every this many windows of 32 events read; at least 1. */
  readonly checkpointInterval?: number;
  readonly batchSize?: number;
  readonly retryDelayMs?: number;
}

interface CheckpointMarker { readonly checkpoint: LogPosition }
type Item = AllStreamResolvedEvent | CheckpointMarker;

/**
 * A catch-up subscription to $all from a position (exclusive), without system events, that
 * survives dropped connections by subscribing again from the last position it handled.
 */
export function subscribeToAllFrom(
  client: Pick<KurrentClient, 'subscribeToAll'>, from: LogPosition, handlers: CatchUpHandlers, options: CatchUpOptions = {},
): Subscription {
  const cursor = { position: from };
  let closed = false;
  let current: ReturnType<KurrentClient['subscribeToAll']> | undefined;
  let stopWaiting: (() => void) | undefined;

  const loop = (async () => {
    while (!closed) {
      const stream = client.subscribeToAll({
        fromPosition: toReadPosition(cursor.position),
        filter: excludeSystemEvents({
          checkpointInterval: options.checkpointInterval ?? 1,
          // The client calls this while transforming the server's reply, after the events before it
          // were pushed: pushing a marker keeps the checkpoint behind them in the one ordered queue.
          checkpointReached: (subscription, position) => { subscription.push({ checkpoint: toLogPosition(position) }); },
        }),
      });
      current = stream;
      // Errors reach readBatches; this keeps a late one (after we let go) from crashing the process.
      stream.on('error', () => undefined);
      try {
        for await (const batch of readBatches<Item>(stream, options.batchSize ?? 500)) {
          if (closed) break;
          await deliver(batch, cursor, handlers);
        }
      } catch (error) {
        if (!closed) handlers.onError?.(error, cursor.position);
      } finally {
        await stream.unsubscribe().catch(() => undefined);
        stream.destroy();
      }
      if (!closed) await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.retryDelayMs ?? 1000);
        stopWaiting = () => { clearTimeout(timer); resolve(); };
      });
    }
  })();

  return {
    close: async () => {
      closed = true;
      stopWaiting?.();
      current?.destroy();
      await loop;
    },
  };
}

/** Hands the batch's events to the handler, cutting it at each checkpoint; moves the cursor only past what was handled. */
async function deliver(batch: readonly Item[], cursor: { position: LogPosition }, handlers: CatchUpHandlers): Promise<void> {
  let seen = cursor.position;
  const pending: RecordedEvent[] = [];
  const flush = async () => {
    if (pending.length > 0) await handlers.onEvents(pending.splice(0));
    cursor.position = seen;
  };
  for (const item of batch) {
    if ('checkpoint' in item) {
      await flush();
      if (comparePositions(item.checkpoint, cursor.position) > 0) {
        seen = item.checkpoint;
        await handlers.onCheckpoint?.(seen);
        cursor.position = seen;
      }
      continue;
    }
    const event = item.event;
    if (!event?.position) continue;
    const at = toLogPosition(event.position);
    // After subscribing again the server may repeat what we already handled.
    if (comparePositions(at, seen) <= 0) continue;
    seen = at;
    const recorded = toRecordedEvent(event);
    if (recorded) pending.push(recorded);
  }
  await flush();
}
