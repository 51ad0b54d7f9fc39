/** What is used of a Readable; the client's subscriptions are typed against its own copy of @types/node. */
export interface ObjectStream {
  read(): unknown;
  on(event: string, listener: (...args: any[]) => void): unknown;
  off(event: string, listener: (...args: any[]) => void): unknown;
  readonly readableEnded: boolean;
  readonly destroyed: boolean;
}

const WAKING_EVENTS = ['readable', 'end', 'close'] as const;

/**
 * Yields what an object-mode stream holds, up to `max` items at a time, and waits only when
 * nothing is buffered; so a subscriber catching up handles its backlog in batches (one
 * transaction each) while a subscriber at the head gets each event as it arrives. An 'error'
 * event is rethrown even when the stream emits it without destroying itself, as the KurrentDB
 * client's subscriptions do.
 */
export async function* readBatches<T>(stream: ObjectStream, max: number): AsyncGenerator<T[]> {
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const signal = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const onError = (error: unknown) => {
    failure ??= { error };
    signal();
  };
  stream.on('error', onError);
  for (const event of WAKING_EVENTS) stream.on(event, signal);
  try {
    for (;;) {
      if (failure) throw failure.error;
      const batch: T[] = [];
      let item: T | null;
      while (batch.length < max && (item = stream.read() as T | null) !== null) batch.push(item);
      if (batch.length > 0) {
        yield batch;
        continue;
      }
      if (stream.readableEnded || stream.destroyed) return;
      // Stream events fire on later ticks, never between the checks above and this line.
      await new Promise<void>((resolve) => { wake = resolve; });
    }
  } finally {
    stream.off('error', onError);
    for (const event of WAKING_EVENTS) stream.off(event, signal);
  }
}
