/** Streams read at once for one request: a share of the pool, not all of it. */
export const STREAMS_AT_ONCE = 4;

/**
 * `work` over every item, at most `limit` at a time, results in the items' order. A past view of
 * a provider with a thousand consumers replays a thousand streams: all at once they would hold
 * every connection of the pool and queue every other request behind them.
 */
export async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
