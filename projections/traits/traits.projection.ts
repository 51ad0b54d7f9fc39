import { send, type AppendedEvent, type SqlClient } from '#event-store/index.js';
import { Projection } from '../runner/projection.js';
import { factTime } from '../runner/fact-time.js';
import { replayTraitEvent } from './traits.memory.js';

export const traitsProjection: Projection = {
  name: 'traits',
  handles: ['TraitCreated', 'TraitDeleted'],
  twin: { memory: 'core', apply: replayTraitEvent },
  async apply(tx: SqlClient, event: AppendedEvent<any>) {
    if (event.type === 'TraitCreated') {
      await send(tx, 'INSERT INTO rm_traits (name, custom, created_at) VALUES ($1, true, $2) ON CONFLICT (name) DO NOTHING',
        [event.data.name, factTime(event)]);
    } else {
      await send(tx, 'DELETE FROM rm_traits WHERE name = $1', [event.data.name]);
    }
  },
};
