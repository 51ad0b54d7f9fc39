import { ReadModelMemory, ReplayEvent } from '../runner/read-model-memory.js';
import { factTime } from '../runner/fact-time.js';

/** projections/traits in memory. */
export function replayTraitEvent(memory: ReadModelMemory, event: ReplayEvent): void {
  const name: string = event.data.name;
  if (event.type === 'TraitCreated') {
    if (!memory.customTraits.has(name)) memory.customTraits.set(name, factTime(event));
  } else if (event.type === 'TraitDeleted') {
    memory.customTraits.delete(name);
  }
}
