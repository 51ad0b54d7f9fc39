import { send, type AppendedEvent, type SqlClient } from '#event-store/index.js';
import { Projection } from '../runner/projection.js';
import { factTime } from '../runner/fact-time.js';
import { replayResourceClassEvent } from './resource-classes.memory.js';

/** Custom classes keep their id across a rename, as upstream's row does. */
export const resourceClassesProjection: Projection = {
  name: 'resource-classes',
  handles: ['ResourceClassCreated', 'ResourceClassRenamed', 'ResourceClassDeleted'],
  twin: { memory: 'core', apply: replayResourceClassEvent },
  async apply(tx: SqlClient, event: AppendedEvent<any>) {
    const at = factTime(event);
    switch (event.type) {
      case 'ResourceClassCreated':
        if (event.data.renamed_from) return; // the Renamed event on the old stream moves the row
        await send(tx,
          `INSERT INTO rm_resource_classes (name, id, custom, created_at, updated_at)
           VALUES ($1, nextval('rm_custom_resource_class_ids'), true, $2, NULL) ON CONFLICT (name) DO NOTHING`,
          [event.data.name, at]);
        return;
      case 'ResourceClassRenamed':
        // Guarded so that replaying a rename after the old name was reused moves nothing twice.
        await send(tx,
          `UPDATE rm_resource_classes SET name = $2, updated_at = $3
           WHERE name = $1 AND NOT EXISTS (SELECT 1 FROM rm_resource_classes WHERE name = $2)`,
          [event.data.name, event.data.to, at]);
        return;
      case 'ResourceClassDeleted':
        await send(tx, 'DELETE FROM rm_resource_classes WHERE name = $1', [event.data.name]);
        return;
    }
  },
};
