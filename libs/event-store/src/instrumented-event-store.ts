import { performance } from 'node:perf_hooks';
import { AppendRequest, EventStore, WrongExpectedRevision } from './port.js';

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
  const append = async (requests: readonly AppendRequest[]) => {
    const started = performance.now();
    const events = requests.reduce((sum, request) => sum + request.events.length, 0);
    try {
      const result = await store.append(requests);
      observer.appended('ok', (performance.now() - started) / 1000, events);
      return result;
    } catch (error) {
      const outcome = error instanceof WrongExpectedRevision ? 'conflict' : 'error';
      observer.appended(outcome, (performance.now() - started) / 1000, events);
      throw error;
    }
  };
  return new Proxy(store, {
    get(target, property) {
      if (property === 'append') return append;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
