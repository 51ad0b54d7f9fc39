import { Client, Pool } from 'pg';
import type { LogPosition } from '#event-store/index.js';
import { READ_MODELS_SCHEMA, searchPathOption } from '../read-model-schema-name.js';
import { resumePosition } from './resume-position.js';
import { decodePosition, PROJECTED_CHANNEL, readCheckpoints } from './checkpoint-rows.js';
import { PositionWaiters } from './position-waiters.js';

export interface ProjectionWaiterOptions {
  readonly url: string;
  readonly pool: Pool;
  readonly projections: readonly string[];
  /** While writes wait: how often the checkpoints are read in case a notification was missed. */
  readonly pollMs?: number;
}

/**
 * Tells a write when the read models have caught up with it. The projector's NOTIFY on commit
 * is the fast path; a short poll of rm_projection_checkpoints, only while someone waits, covers
 * a LISTEN connection that dropped and reconnects.
 */
export class ProjectionWaiter {
  private readonly waiters = new PositionWaiters();
  private listener: Client | undefined;
  private poller: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: ProjectionWaiterOptions) {}

  async start(): Promise<void> {
    await this.refresh();
    await this.listen();
    this.poller = setInterval(() => {
      if (this.waiters.waiting > 0) void this.refresh().catch(() => undefined);
    }, this.options.pollMs ?? 100);
  }

  /** True once every projection has passed `position`; false after `timeoutMs`. */
  async reached(position: LogPosition, timeoutMs: number): Promise<boolean> {
    return this.waiters.wait(position, timeoutMs);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.poller);
    this.waiters.releaseAll();
    await this.listener?.end().catch(() => undefined);
  }

  private async refresh(): Promise<void> {
    this.waiters.advance(resumePosition(await readCheckpoints(this.options.pool, this.options.projections)));
  }

  private async listen(): Promise<void> {
    const client = new Client({ connectionString: this.options.url, options: searchPathOption(READ_MODELS_SCHEMA), keepAlive: true });
    client.on('notification', (message) => {
      const position = message.payload ? decodePosition(message.payload) : undefined;
      if (position) this.waiters.advance(position);
    });
    client.on('error', () => this.relisten(client));
    client.on('end', () => this.relisten(client));
    await client.connect();
    await client.query(`LISTEN ${PROJECTED_CHANNEL}`);
    this.listener = client;
  }

  private relisten(dead: Client): void {
    if (this.closed || this.listener !== dead) return;
    this.listener = undefined;
    setTimeout(() => void this.listen().catch(() => this.retryLater()), 500);
  }

  private retryLater(): void {
    if (!this.closed) setTimeout(() => void this.listen().catch(() => this.retryLater()), 1000);
  }
}
