import type { ServerResponse } from 'node:http';
import type { PresentedLedgerEvent } from '#placement/ledger/index.js';

/** One SSE message: the position as its id, so an EventSource resumes from Last-Event-ID. */
export function sseMessage(event: PresentedLedgerEvent): string {
  return `id: ${event.position}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** A comment line: ignored by EventSource, it keeps proxies from timing an idle stream out. */
export function sseComment(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
}

/** How long an EventSource waits before reconnecting after the stream ends. */
const RETRY_MS = 2000;

/**
 * The open response of one SSE client. Writes wait for the socket to drain, so a client
 * catching up on a long log slows the reader down instead of filling the server's memory.
 */
export class EventStreamResponse {
  private closed = false;

  constructor(private readonly raw: ServerResponse) {
    raw.on('close', () => (this.closed = true));
  }

  get isClosed(): boolean {
    return this.closed || this.raw.destroyed || this.raw.writableEnded;
  }

  open(headers: Record<string, string | number | string[] | undefined>): void {
    this.raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      // The stream ends only when the client leaves or the server drains: then the connection goes too.
      connection: 'close',
      'x-accel-buffering': 'no',
    });
    this.raw.write(`retry: ${RETRY_MS}\n${sseComment('connected')}`);
  }

  async write(text: string): Promise<void> {
    if (this.isClosed) return;
    if (this.raw.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.raw.off('drain', done);
        this.raw.off('close', done);
        resolve();
      };
      this.raw.on('drain', done);
      this.raw.on('close', done);
    });
  }

  end(): void {
    if (!this.isClosed) this.raw.end();
  }
}
