import { performance } from 'node:perf_hooks';
import { AppendRequest, AppendResult, EventStore, WrongExpectedRevision } from './port.js';

export type AppendOutcome = 'ok' | 'conflict' | 'error';

/** Told about every append attempt; a metrics registry implements it, the store knows no metrics library. */
export interface AppendObserver {
  appended(outcome: AppendOutcome, seconds: number, events: number): void;
}

/**
 * Times `append` of any adapter and reports how it ended; a WrongExpectedRevision is a
 * 'conflict' (a lost race the writer retries), anything else thrown is an 'error'.
 * A Proxy rather than a class so the adapter's own methods (schema, inline projectors)
 * stay reachable through the value the application holds.
 */
export function instrumentAppends<S extends EventStore>(store: S, observer: AppendObserver): S {
  // The adapter's own promise is handed on, not a wrapper: appendAfter knows appends by it.
  const timed = (requests: readonly AppendRequest[], appending: Promise<AppendResult>) => {
    const started = performance.now();
    const events = requests.reduce((sum, request) => sum + request.events.length, 0);
    appending.then(
      () => observer.appended('ok', (performance.now() - started) / 1000, events),
      (error) => observer.appended(error instanceof WrongExpectedRevision ? 'conflict' : 'error', (performance.now() - started) / 1000, events),
    ).catch(() => undefined); // a metric that cannot be recorded neither fails the append nor ends the process
    return appending;
  };
  const append = (requests: readonly AppendRequest[]) => timed(requests, store.append(requests));
  const appendAfter = store.appendAfter
    && ((earlier: readonly Promise<AppendResult>[], requests: readonly AppendRequest[]) => timed(requests, store.appendAfter!(earlier, requests)));
  return new Proxy(store, {
    get(target, property) {
      if (property === 'append') return append;
      if (property === 'appendAfter') return appendAfter;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
