import { Controller, Get, Logger, Optional, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LogPosition } from '#event-store/index.js';
import { LedgerFeed, LedgerEvent, positionToken, presentLedgerEvent } from '#placement/ledger/index.js';
import { Operations } from '../operations/operations.js';
import { PlacementError } from '../platform/placement-error.js';
import { QueryParams } from '../platform/request-params.js';
import { EventStreamResponse, sseComment, sseMessage } from './event-stream.js';
import { FeedParams, parseFeedParams } from './ledger-params.js';
import { acceptsJson } from '../platform/api-route.js';

/** How often an idle stream or long-poll asks the log for news. */
const POLL_MS = 200;


/**
 * The global feed for external consumers, in the gap-free order: a JSON page (optionally held
 * open until something arrives: ?wait=seconds), or server-sent events of everything committed
 * from the position on, for as long as the client stays.
 */
@Controller('ledger')
export class LedgerFeedController {
  private readonly logger = new Logger('ledger-feed');

  constructor(private readonly feed: LedgerFeed, @Optional() private readonly operations?: Operations) {}

  @Get('events')
  async events(@QueryParams() query: URLSearchParams, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const lastEventId = request.headers['last-event-id'];
    const params = parseFeedParams(query, request.headers.accept, typeof lastEventId === 'string' ? lastEventId : undefined);
    if (params.sse) return this.stream(params, reply);
    if (!acceptsJson(request.headers.accept)) throw new PlacementError(406, 'Only application/json and text/event-stream are provided');
    let gone = false;
    reply.raw.on('close', () => (gone = true));
    const events = params.waitSeconds > 0
      ? await this.feed.waitForPage(params.after, params.limit, {
          until: Date.now() + params.waitSeconds * 1000, stopped: () => gone || this.draining(), pollMs: POLL_MS,
        })
      : await this.feed.page(params.after, params.limit);
    reply.header('cache-control', 'no-cache');
    return reply.type('application/json').send({ events: events.map(presentLedgerEvent), next: positionToken(nextPosition(params.after, events)) });
  }

  /** Runs until the client disconnects or the server drains; never throws once the stream is open. */
  private async stream(params: FeedParams, reply: FastifyReply): Promise<void> {
    reply.hijack();
    const stream = new EventStreamResponse(reply.raw);
    stream.open(reply.getHeaders());
    let after = params.after;
    let lastWrite = Date.now();
    try {
      while (!stream.isClosed && !this.draining()) {
        const events = await this.feed.page(after, params.limit);
        for (const event of events) await stream.write(sseMessage(presentLedgerEvent(event)));
        after = nextPosition(after, events);
        if (events.length > 0) {
          lastWrite = Date.now();
          continue;
        }
        if (Date.now() - lastWrite >= params.keepAliveSeconds * 1000) {
          await stream.write(sseComment('keep-alive'));
          lastWrite = Date.now();
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } catch (error) {
      this.logger.error(`event stream stopped: ${error instanceof Error ? error.message : String(error)}`);
      await stream.write(sseComment('error: the feed failed; reconnect to resume from the last id'));
    } finally {
      stream.end();
    }
  }

  private draining(): boolean {
    return this.operations?.draining === true;
  }
}

const nextPosition = (after: LogPosition, events: readonly LedgerEvent[]): LogPosition =>
  (events.length > 0 ? events[events.length - 1].position : after);
