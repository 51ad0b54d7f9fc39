import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EVENT_STORE, EventStore, LogPosition, PostgresEventStore, RecordedEvent, START } from '../../../event-store/src/index.js';
import { READ_DB, ReadDb } from '../shared/read-db.js';
import { applyEvent } from './index/apply-event.js';
import { ProjectTally } from './index/project-tally.js';
import { NameCatalog } from './index/name-catalog.js';
import { ProviderIndex } from './index/provider-index.js';
import { Horizon, readHorizon, readTail } from './log-horizon.js';

const BATCH = 5000;
/** A writer older than the request still running is waited for this long, then the answer goes out. */
const MAX_WAIT_MS = 2000;

export interface CandidateView {
  readonly index: ProviderIndex;
  readonly names: NameCatalog;
  /** Usage per project, for GET /metrics. */
  readonly projects: ProjectTally;
}

/**
 * The provider index of the candidate search, fed from the log's gap-free global order: the
 * whole log at start, then, before each query, every transaction finished before it began.
 */
@Injectable()
export class CandidateIndexService implements OnModuleInit {
  private readonly view: CandidateView = { index: new ProviderIndex(), names: new NameCatalog(), projects: new ProjectTally() };
  private position: LogPosition = START;
  /** Every transaction with a smaller id has been applied. */
  private covered = 0n;
  private draining: Promise<void> | null = null;
  private readonly logger = new Logger('candidates');

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore, @Inject(READ_DB) private readonly db: ReadDb) {}

  async onModuleInit(): Promise<void> {
    await this.current();
  }

  /** The index reflecting every write acknowledged before this call. */
  async current(): Promise<CandidateView> {
    if (!(this.store instanceof PostgresEventStore)) {
      await this.readToEnd();
      return this.view;
    }
    let horizon = await readHorizon(this.db);
    const target = horizon.next;
    const deadline = Date.now() + MAX_WAIT_MS;
    while (this.covered < target) {
      await this.drain(horizon);
      if (this.covered >= target) break;
      if (Date.now() > deadline) {
        this.logger.warn(`a log writer older than this query is still running; answering as of transaction ${this.covered}`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
      horizon = await readHorizon(this.db);
    }
    return this.view;
  }

  /**
   * A log without PostgreSQL's in-flight transactions (KurrentDB's $all) has no gaps: every
   * acknowledged append is readable at once, so its end is the horizon. A query that arrives
   * while another reads waits for it, then reads on from there, since that read may have begun
   * before the query's writes were acknowledged.
   */
  private async readToEnd(): Promise<void> {
    while (this.draining) await this.draining;
    this.draining = this.readAllOf((from) => this.store.readAll(from, BATCH)).finally(() => (this.draining = null));
    await this.draining;
  }

  /** One reader at a time; concurrent queries share its work. */
  private async drain(horizon: Horizon): Promise<void> {
    while (this.draining) await this.draining;
    if (this.covered >= horizon.finishedHere) return;
    this.draining = this.read(horizon).finally(() => (this.draining = null));
    await this.draining;
  }

  private async read(horizon: Horizon): Promise<void> {
    // The port's gap-free reader: it sees every transaction below `finished`, since it runs
    // after the horizon was read.
    await this.readAllOf((from) => this.store.readAll(from, BATCH));
    if (horizon.finished > this.covered) this.covered = horizon.finished;
    if (this.covered >= horizon.finishedHere) return;
    // A writer of another database of the cluster (a DROP DATABASE, a migration) holds the
    // port's bound back for seconds; only this database's writers can add to this log.
    await this.readAllOf((from) => readTail(this.db, from, horizon.finishedHere, BATCH));
    this.covered = horizon.finishedHere;
  }

  private async readAllOf(read: (from: LogPosition) => Promise<RecordedEvent[]>): Promise<void> {
    for (;;) {
      const batch = await read(this.position);
      for (const event of batch) applyEvent(this.view.index, this.view.names, event, this.view.projects);
      if (batch.length > 0) this.position = batch[batch.length - 1].position;
      if (batch.length < BATCH) return;
    }
  }
}
