import { conflict } from '../shared/domain-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { ConsumerState } from './consumer.state.js';

/** Python's %s of the value the client sent. */
const shown = (generation: number | null) => (generation === null ? 'None' : String(generation));

/**
 * From 1.28 the client states the generation it last saw (null: "this consumer is new");
 * undefined means an older microversion, where nothing is checked. As upstream's ensure_consumer.
 */
export function checkConsumerGeneration(state: ConsumerState, expected: number | null | undefined): void {
  if (expected === undefined) return;
  if (state.status === 'active') {
    if (state.generation !== expected) {
      throw conflict(
        `consumer generation conflict - expected ${state.generation} but got ${shown(expected)}`,
        ErrorCode.CONCURRENT_UPDATE,
      );
    }
  } else if (expected !== null) {
    throw conflict(`consumer generation conflict - expected null but got ${expected}`, ErrorCode.CONCURRENT_UPDATE);
  }
}
