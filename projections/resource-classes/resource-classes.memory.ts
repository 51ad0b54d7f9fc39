import { ReadModelMemory, ReplayEvent } from '../runner/read-model-memory.js';
import { factTime } from '../runner/fact-time.js';

/** projections/resource-classes in memory: a rename keeps the id; ids are spent as nextval spends them. */
export function replayResourceClassEvent(memory: ReadModelMemory, event: ReplayEvent): void {
  const data = event.data;
  switch (event.type) {
    case 'ResourceClassCreated': {
      if (data.renamed_from) return;
      const id = memory.nextClassId++;
      if (!memory.customClasses.has(data.name)) memory.customClasses.set(data.name, { id, createdAt: factTime(event), updatedAt: null });
      return;
    }
    case 'ResourceClassRenamed': {
      const row = memory.customClasses.get(data.name);
      if (!row || memory.customClasses.has(data.to)) return;
      memory.customClasses.delete(data.name);
      memory.customClasses.set(data.to, { ...row, updatedAt: event.recordedAt });
      return;
    }
    case 'ResourceClassDeleted':
      memory.customClasses.delete(data.name);
      return;
  }
}
