import { ReadModelMemory, ReplayEvent } from '../runner/read-model-memory.js';
import { factTime } from '../runner/fact-time.js';

/** projections/allocations in memory: consumers, their rows, and the generations claims move. */
export function replayAllocationEvent(memory: ReadModelMemory, event: ReplayEvent): void {
  const at = factTime(event);
  const data = event.data;
  switch (event.type) {
    case 'ConsumerAllocationsReplaced': {
      const uuid = event.stream.slice('consumer-'.length);
      const createdAt = memory.consumers.get(uuid)?.createdAt ?? at;
      memory.consumers.set(uuid, {
        projectId: data.project_id, userId: data.user_id, consumerType: data.consumer_type ?? null,
        generation: data.generation, createdAt, updatedAt: at,
      });
      memory.holdings.set(uuid, { allocations: data.allocations, order: data.written_order, at });
      return;
    }
    case 'ConsumerRemoved': {
      const uuid = event.stream.slice('consumer-'.length);
      memory.consumers.delete(uuid);
      memory.holdings.delete(uuid);
      return;
    }
    case 'ProviderAllocationsChanged': {
      const row = memory.providers.get(event.stream.slice('provider-'.length));
      if (row && row.generation < data.generation) {
        row.generation = data.generation;
        row.updatedAt = at;
      }
      return;
    }
  }
}
