import { Controller, Get, Inject, Logger, Optional, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LogPosition } from '#event-store/index.js';
import { EventOwners, FeedFilter, LedgerFeed, positionToken, presentLedgerEvent } from '#placement/ledger/index.js';
import { Operations } from '../operations/operations.js';
import { acceptsJson } from '../platform/api-route.js';
import { PlacementError } from '../platform/placement-error.js';
import type { Access } from '../platform/policy/access.js';
import { requestState } from '../platform/request-state.js';
import { Judged, QueryParams } from '../platform/request-params.js';
import { EventStreamResponse, sseComment, sseMessage } from './event-stream.js';
import { FeedSlots } from './feed-slots.js';
import { visibleEvents } from './judge-events.js';
import { FeedParams, parseFeedParams } from './ledger-params.js';

/** How often an idle stream or long-poll asks the log for news. */
const POLL_MS = 200;
/** How often an open stream checks that its token still holds (expired, revoked). */
const REAUTHENTICATE_MS = 5000;
/** What a client refused a slot is told to wait before it tries again. */
const RETRY_AFTER_SECONDS = 5;

export const FEED_SLOTS = Symbol('FEED_SLOTS');

/**
 * The global feed for external consumers, in the gap-free order: a JSON page (optionally held
 * open until something arrives: ?wait=seconds), or server-sent events of everything committed
 * from the position on, for as long as the client stays and its token holds. A caller who may
 * see only its own project's data gets only the events of its projects' consumers.
 */
@Controller('ledger')
export class LedgerFeedController {
  private readonly logger = new Logger('ledger-feed');

  constructor(
    private readonly feed: LedgerFeed,
    private readonly owners: EventOwners,
    @Inject(FEED_SLOTS) private readonly slots: FeedSlots,
    @Optional() private readonly operations?: Operations,
  ) {}

  @Get('events')
  async events(@QueryParams() query: URLSearchParams, @Judged() access: Access, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const lastEventId = request.headers['last-event-id'];
    const params = parseFeedParams(query, request.headers.accept, typeof lastEventId === 'string' ? lastEventId : undefined);
    if (!params.sse && !acceptsJson(request.headers.accept)) throw new PlacementError(406, 'Only application/json and text/event-stream are provided');
    const filter: FeedFilter = (events) => visibleEvents(access, this.owners, events);
    if (!params.sse && params.waitSeconds === 0) return this.answer(reply, await this.feed.page(params.after, params.limit, filter));
    const release = this.slots.take(principalOf(request));
    if (!release) {
      throw new PlacementError(429, 'Too many feed connections are open; try again later', undefined, { 'retry-after': String(RETRY_AFTER_SECONDS) });
    }
    try {
      if (params.sse) return await this.stream(params, filter, request, reply);
      let gone = false;
      reply.raw.on('close', () => (gone = true));
      const until = Date.now() + params.waitSeconds * 1000;
      return this.answer(reply, await this.feed.waitForPage(params.after, params.limit, { until, stopped: () => gone || this.draining(), pollMs: POLL_MS }, filter));
    } finally {
      release();
    }
  }

  private answer(reply: FastifyReply, page: { events: Parameters<typeof presentLedgerEvent>[0][]; next: LogPosition }) {
    reply.header('cache-control', 'no-cache');
    return reply.type('application/json').send({ events: page.events.map(presentLedgerEvent), next: positionToken(page.next) });
  }

  /** Runs until the client disconnects, the server drains or the token stops holding; never throws once the stream is open. */
  private async stream(params: FeedParams, filter: FeedFilter, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const stillAuthenticated = requestState(request).stillAuthenticated ?? (async () => true);
    reply.hijack();
    const stream = new EventStreamResponse(reply.raw);
    stream.open(reply.getHeaders());
    let after = params.after;
    let lastWrite = Date.now();
    let lastCheck = Date.now();
    try {
      while (!stream.isClosed && !this.draining()) {
        if (Date.now() - lastCheck >= REAUTHENTICATE_MS) {
          lastCheck = Date.now();
          if (!(await stillAuthenticated())) {
            await stream.write(sseComment('the token expired or was revoked; reconnect with a new one to resume from the last id'));
            break;
          }
        }
        const page = await this.feed.page(after, params.limit, filter);
        for (const event of page.events) await stream.write(sseMessage(presentLedgerEvent(event)));
        const moved = page.next !== after;
        after = page.next;
        if (page.events.length > 0) lastWrite = Date.now();
        if (moved) continue;
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

/** Whose slots a connection counts against: the token's user in its project. */
function principalOf(request: FastifyRequest): string {
  const caller = requestState(request).caller;
  return `${caller?.userId ?? ''}\u0000${caller?.projectId ?? ''}`;
}
