import { Client } from 'pg';
import type { LogPosition } from '#event-store/index.js';
import type { Projection } from '../projection.js';
import { READ_MODELS_SCHEMA, searchPathOption } from '../read-model-schema-name.js';
import { applyBatch, BEHIND } from './apply-batch.js';
import { resumePosition } from './resume-position.js';
import { readCheckpoints } from './checkpoint-rows.js';
import { LeaderRole, LeaderSignal, nextRole } from './leader-role.js';
import type { LogReader } from './log-reader.js';

/** One lock for every projector of a database, whichever process runs it. */
const PROJECTOR_LOCK = "hashtext('placement: projector leader')";

export interface AsyncProjectorOptions {
  readonly url: string;
  /** storeReader(store): the store's gap-free reader. */
  readonly read: LogReader;
  readonly projections: readonly Projection[];
  readonly batchSize?: number;
  /** How often the leader looks for new events when it found none. */
  readonly idlePollMs?: number;
  /** How often a standby asks for the lock: the upper bound of a takeover after the leader dies. */
  readonly standbyPollMs?: number;
  readonly onRole?: (role: LeaderRole) => void;
  readonly onBatch?: (events: number, position: LogPosition) => void;
  readonly onError?: (error: unknown) => void;
}

/**
 * Applies the projections from a catch-up reading of the log, batch by batch, while holding
 * the projector lock; otherwise stands by and asks for the lock again. A dead leader's session
 * ends with its connection, which frees the lock for the next standby's ask.
 */
export class AsyncProjector {
  private role: LeaderRole = 'connecting';
  private client: Client | undefined;
  private running: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** Where the next batch is read from; undefined: from the checkpoints. */
  private position: LogPosition | undefined;

  constructor(private readonly options: AsyncProjectorOptions) {}

  get currentRole(): LeaderRole {
    return this.role;
  }

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.signal('stop');
    this.wake?.();
    await this.running;
    await this.client?.end().catch(() => undefined);
  }

  /** A method rather than a field test: stop() changes the role while the loop awaits. */
  private isStopped(): boolean {
    return this.role === 'stopped';
  }

  private signal(signal: LeaderSignal): void {
    const next = nextRole(this.role, signal);
    if (next === this.role) return;
    this.role = next;
    this.options.onRole?.(next);
  }

  private async loop(): Promise<void> {
    while (this.role !== 'stopped') {
      try {
        if (this.role === 'connecting') await this.connect();
        else if (this.role === 'standby') await this.askForLock();
        else await this.projectOnce();
      } catch (error) {
        if (this.isStopped()) break;
        this.options.onError?.(error);
        await this.client?.end().catch(() => undefined);
        this.client = undefined;
        this.signal('connection-lost');
        await this.sleep(this.options.standbyPollMs ?? 1000);
      }
    }
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.options.url, options: searchPathOption(READ_MODELS_SCHEMA), keepAlive: true });
    // An idle connection's death surfaces on its next query; the handler only keeps it from crashing the process.
    client.on('error', () => undefined);
    await client.connect();
    this.client = client;
    this.signal('connected');
  }

  private async askForLock(): Promise<void> {
    const { rows } = await this.client!.query<{ got: boolean }>(`SELECT pg_try_advisory_lock(${PROJECTOR_LOCK}) AS got`);
    this.signal(rows[0].got ? 'lock-granted' : 'lock-refused');
    if (this.role === 'leading') this.position = undefined;
    else await this.sleep(this.options.standbyPollMs ?? 1000);
  }

  private async projectOnce(): Promise<void> {
    const names = this.options.projections.map((projection) => projection.name);
    // Read again on every takeover: the previous leader may have committed batches meanwhile.
    this.position ??= resumePosition(await readCheckpoints(this.client!, names));
    const events = await this.options.read(this.position, this.options.batchSize ?? 500);
    if (events.length === 0) {
      await this.sleep(this.options.idlePollMs ?? 25);
      return;
    }
    const reached = await applyBatch(this.client!, this.options.projections, this.position, events);
    if (reached === BEHIND) {
      this.position = undefined;
      return;
    }
    this.position = reached ?? this.position;
    this.options.onBatch?.(events.length, this.position);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() { clearTimeout(timer); resolve(); }
      this.wake = done;
    });
  }
}
