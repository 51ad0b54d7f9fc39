import { EventStore, LogPosition } from '#event-store/index.js';

export type ReachedCheck = (position: LogPosition, timeoutMs: number) => Promise<boolean>;

/**
 * With asynchronous projections an append returns only once the read models have passed it,
 * so the handler's own read-back (a created provider's body) and the client's next GET, through
 * any process, see the write. Waiting here rather than before the reply is what the handlers
 * need: they read the read models right after their append. When the projector does not catch
 * up in time, `behind` says so; the events are durable by then, which its message must tell.
 */
export function awaitingProjections<S extends EventStore>(
  store: S, reached: ReachedCheck, timeoutMs: number, behind: (detail: string) => Error,
): S {
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key !== 'append') return Reflect.get(target, key, receiver);
      return async (...args: Parameters<EventStore['append']>) => {
        const result = await target.append(...args);
        if (!(await reached(result.position, timeoutMs))) throw behind(behindMessage(timeoutMs));
        return result;
      };
    },
  });
}

export const behindMessage = (timeoutMs: number) =>
  `The change was saved, but the read models did not catch up with it within ${timeoutMs} ms ` +
  '(is a projector running?); reads may not show it yet. Do not repeat the request before checking.';
