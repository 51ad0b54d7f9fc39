import { AppendResult, EventStore, GlobalFilter, LogPosition, RecordedEvent } from '#event-store/index.js';
import { ReadDb } from '../shared/read-db.js';
import { CandidateIndexService } from './candidate-index.service.js';

const at = (prepare: number): LogPosition => ({ commit: BigInt(prepare), prepare: BigInt(prepare) });
const classCreated = (name: string, prepare: number): RecordedEvent => ({
  stream: `resource-class-${name}`, revision: 0, position: at(prepare), type: 'ResourceClassCreated',
  data: { name }, metadata: {}, recordedAt: new Date(0),
});

/** A log of two events whose head is read before the second is readable (its writer still in flight). */
class TwoStepLog implements Partial<EventStore> {
  readonly filters: (Omit<GlobalFilter, 'until'> | GlobalFilter | undefined)[] = [];
  async readToHead(_from: LogPosition, _limit: number, filter?: Omit<GlobalFilter, 'until'>) {
    this.filters.push(filter);
    return { head: at(2), events: [classCreated('CUSTOM_A', 1)] };
  }
  async readAll(from: LogPosition, _limit: number, filter?: GlobalFilter): Promise<RecordedEvent[]> {
    this.filters.push(filter);
    return from.prepare < 2n ? [classCreated('CUSTOM_B', 2)] : [];
  }
  async append(): Promise<AppendResult> { throw new Error('the index never writes'); }
}

describe('CandidateIndexService reading the log', () => {
  it('asks for the events without their metadata, which it never folds', async () => {
    const log = new TwoStepLog();
    const service = new CandidateIndexService(log as unknown as EventStore, {} as ReadDb);
    const view = await service.current();
    expect(view.names.hasClass('CUSTOM_A') && view.names.hasClass('CUSTOM_B')).toBe(true);
    expect(log.filters).toEqual([{ metadata: false }, { metadata: false, until: { position: at(2) } }]);
  });
});
