import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { comparePositions, EVENT_STORE, EventStore, LogPosition, RecordedEvent, START } from '#event-store/index.js';
import { FreshReads } from '../shared/fresh-reads.js';
import { READ_DB, ReadDb } from '../shared/read-db.js';
import { applyEvent, movesOnlyUsage } from './index/apply-event.js';
import { ViewLease } from './index/view-lease.js';
import { CandidateView, emptyView } from './candidate-view.js';
import { CandidateSnapshotStore } from './snapshot/snapshot-store.js';
import { encodeSnapshot, loadNewestSnapshot, PositionedView, storeSnapshot } from './snapshot/snapshots.js';

export type { CandidateView } from './candidate-view.js';

const BATCH = 5000;
/** The index folds events' data only: who wrote them is not sent, nor parsed, on every read. */
const DATA_ONLY = { metadata: false } as const;
/** A writer older than the request still running is waited for this long, then the answer goes out. */
const MAX_WAIT_MS = 2000;
/**
 * A new snapshot once the view holds this many events more than the newest stored one: writing
 * one costs far less than a start replaying that many events.
 */
const SNAPSHOT_EVERY = 100_000;

/**
 * The provider index of the candidate search, fed from the log's gap-free global order through
 * the event store port (either store): the newest stored snapshot and the log after it at start,
 * then, before each query, the log up to its head. Snapshots are written in the background as the log grows.
 */
@Injectable()
export class CandidateIndexService implements OnModuleInit {
  private view: CandidateView = emptyView();
  private position: LogPosition = START;
  /** Events folded into the view, and the last of them: what a snapshot of it records. */
  private events = 0;
  private last: PositionedView['last'] = null;
  /** Events in the newest snapshot this process knows is stored. */
  private storedEvents = 0;
  private snapshotting = false;
  private readonly snapshots: CandidateSnapshotStore;
  /** Events beyond the newest stored snapshot that make the next one (tests make it small). */
  snapshotEvery = SNAPSHOT_EVERY;
  /** How this process's view began: events read from a snapshot (0 without one) and from the log. */
  startedFrom = { snapshotEvents: 0, logEvents: 0 };
  private draining: Promise<void> | null = null;
  /** The head, and the log up to it from where the view stands, applied: one round trip shared by concurrent queries. */
  private readonly heads = new FreshReads<LogPosition>(async () => {
    const { head, events } = await this.store.readToHead(this.position, BATCH, DATA_ONLY);
    await this.fold(events);
    return head;
  });
  /** The view changes only while no search or snapshot that pauses holds it, but for usage, which a search lets in. */
  private readonly lease = new ViewLease();
  private readonly logger = new Logger('candidates');

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore, @Inject(READ_DB) private readonly db: ReadDb) {
    this.snapshots = new CandidateSnapshotStore(db);
  }

  async onModuleInit(): Promise<void> {
    const started = performance.now();
    const loaded = await loadNewestSnapshot(this.snapshots, this.store, (why) => this.logger.warn(`${why}; not used`))
      .catch((error: Error) => {
        // No table yet (a database the migrations have not reached) or a failing read: replay instead.
        this.logger.warn(`candidate snapshots unreadable (${error.message}); replaying the log`);
        return null;
      });
    if (loaded) {
      ({ view: this.view, position: this.position, events: this.events, last: this.last } = loaded);
      this.storedEvents = loaded.events;
    }
    await this.current();
    this.startedFrom = { snapshotEvents: loaded?.events ?? 0, logEvents: this.events - (loaded?.events ?? 0) };
    this.logger.log(`candidate index ready in ${Math.round(performance.now() - started)} ms: `
      + `${loaded ? `snapshot of ${loaded.events} events and ` : ''}${this.events - (loaded?.events ?? 0)} events of the log`);
  }

  /** Brings the view up to every acknowledged write and stores it, unless one as new is stored. */
  async snapshotNow(): Promise<boolean> {
    await this.current();
    while (this.snapshotting) await new Promise((resolve) => setTimeout(resolve, 5));
    return this.writeSnapshot();
  }

  /**
   * The index reflecting every write acknowledged before this call: the log's head is read first
   * (every acknowledged append is at or before it), then the log up to it, by a read sent after
   * this call, which queries arriving together share (FreshReads). The port's reader never
   * skips a writer still in flight, so a head that is not yet readable means such a writer (of
   * this database) has yet to finish: it is waited for, briefly, then the answer goes out.
   */
  async current(): Promise<CandidateView> {
    // One round trip, usually all it takes.
    const head = await this.heads.get();
    const deadline = Date.now() + MAX_WAIT_MS;
    while (comparePositions(this.position, head) < 0) {
      await this.drain(head);
      if (comparePositions(this.position, head) >= 0) break;
      if (Date.now() > deadline) {
        this.logger.warn('a log writer older than this query is still running; answering without it');
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    return this.view;
  }

  /**
   * `work` over the view reflecting every write acknowledged before this call (current()), which
   * does not change while `work` runs, though it awaits: writes arriving meanwhile are folded in
   * once it is done. With `letUsageIn` (a search), writes that only move usage are folded in
   * while it pauses: it sees one set of providers, trees, traits and aggregates throughout, and
   * each provider's usage as it stands when it looks.
   */
  async read<T>(work: (view: CandidateView) => Promise<T>, letUsageIn = false): Promise<T> {
    await this.current();
    return this.lease.read(() => work(this.view), letUsageIn);
  }

  /** Whether a fold of the log waits for the searches reading the view to end. */
  get writeWaiting(): boolean {
    return this.lease.writeWaiting;
  }

  /**
   * One reader at a time; concurrent queries share its work. A query that arrives while another
   * reads waits for it, then reads on to its own head, which may lie beyond.
   */
  private async drain(head: LogPosition): Promise<void> {
    while (this.draining) await this.draining;
    if (comparePositions(this.position, head) >= 0) return;
    this.draining = this.readAllOf((from) => this.store.readAll(from, BATCH, { ...DATA_ONLY, until: { position: head } }))
      .finally(() => (this.draining = null));
    await this.draining;
  }

  private async readAllOf(read: (from: LogPosition) => Promise<RecordedEvent[]>): Promise<void> {
    for (;;) {
      const batch = await read(this.position);
      await this.fold(batch);
      if (batch.length < BATCH) break;
    }
  }

  /** A read of the log folded in, as soon as the readers holding the view let it. */
  private fold(batch: readonly RecordedEvent[]): Promise<void> {
    return this.lease.write(() => this.applyRead(batch), batch.every(movesOnlyUsage));
  }

  /**
   * A read of the global order from where the view stood when it was asked for: what another
   * query's read applied meanwhile is passed over (reads are gap-free prefixes of one order).
   */
  private applyRead(batch: readonly RecordedEvent[]): void {
    let applied = 0;
    for (const event of batch) {
      if (comparePositions(event.position, this.position) <= 0) continue;
      applyEvent(this.view.index, this.view.names, event, this.view.projects);
      this.position = event.position;
      this.last = { stream: event.stream, revision: event.revision };
      applied++;
    }
    this.events += applied;
    if (applied > 0 && this.events - this.storedEvents >= this.snapshotEvery && !this.snapshotting) {
      // After the query that read these events has its answer: encoding holds the event loop
      // for a while on a large cloud (docs/performance.md).
      this.snapshotting = true;
      setImmediate(() => void this.writeSnapshot(true));
    }
  }

  /**
   * Encodes the view as it stands, its parts in turns of the event loop of their own while the
   * lease keeps the log from being folded in (the parts are all of one position), then stores it
   * while requests go on. A failure only leaves the older snapshot in place.
   */
  private async writeSnapshot(scheduled = false): Promise<boolean> {
    if (this.snapshotting && !scheduled) return false;
    this.snapshotting = true;
    let at: PositionedView | undefined;
    try {
      const encoded = await this.lease.read(async () => {
        const now: PositionedView = { view: this.view, position: this.position, events: this.events, last: this.last };
        return { now, payload: now.events === 0 ? [] : await encodeSnapshot(now.view) };
      });
      at = encoded.now;
      if (at.events === 0) return false;
      const written = await storeSnapshot(this.snapshots, at, encoded.payload);
      // Written here or by another process: either way none is needed before snapshotEvery more.
      this.storedEvents = at.events;
      if (written) this.logger.log(`candidate snapshot stored at ${at.events} events`);
      return written;
    } catch (error) {
      this.logger.warn(`candidate snapshot not stored: ${(error as Error).message}`);
      this.storedEvents = at?.events ?? this.events;
      return false;
    } finally {
      this.snapshotting = false;
    }
  }
}
