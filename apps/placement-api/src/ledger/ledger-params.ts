import { ErrorCode } from '#domain/index.js';
import type { LogPosition } from '#event-store/index.js';
import { START } from '#event-store/index.js';
import {
  AsOf, HistoryOrder, parseAge, parseAsOf, parsePositionToken, parseRevisionMarker,
} from '#placement/ledger/index.js';
import { httpBadRequest } from '../platform/placement-error.js';
import { validateQueryParams } from '../platform/query-params/query-string.js';
import { AS_OF_QUERY, FEED_QUERY, HISTORY_QUERY, STALE_CONSUMERS_QUERY } from './ledger.schemas.js';

const MAX_PAGE = 1000;
const DEFAULT_PAGE = 100;
const MAX_WAIT_SECONDS = 60;
const DEFAULT_KEEPALIVE_SECONDS = 15;

const badValue = (detail: string) => httpBadRequest(detail, ErrorCode.QUERYPARAM_BAD_VALUE);

function count(name: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (value < min || value > max) throw badValue(`Invalid ${name}: ${text}; it must be between ${min} and ${max}`);
  return value;
}

function parsePosition(name: string, text: string | undefined): LogPosition {
  if (text === undefined) return START;
  const position = parsePositionToken(text);
  if (!position) throw badValue(`Invalid ${name}: '${text}' is not a log position token`);
  return position;
}

export interface HistoryParams {
  readonly order: HistoryOrder;
  readonly limit: number;
  readonly afterRevision: number | undefined;
}

export function parseHistoryParams(query: URLSearchParams): HistoryParams {
  const single = validateQueryParams(query, HISTORY_QUERY);
  let afterRevision: number | undefined;
  if (single.marker !== undefined) {
    afterRevision = parseRevisionMarker(single.marker);
    if (afterRevision === undefined) throw badValue(`Invalid marker: '${single.marker}' is not a marker of this history`);
  }
  return { order: (single.order as HistoryOrder) ?? 'asc', limit: count('limit', single.limit, DEFAULT_PAGE, 1, MAX_PAGE), afterRevision };
}

export interface FeedParams {
  readonly after: LogPosition;
  readonly limit: number;
  /** Long-poll: how long to hold an empty answer open, in seconds (0: answer at once). */
  readonly waitSeconds: number;
  readonly sse: boolean;
  readonly keepAliveSeconds: number;
}

/**
 * The feed's query string; SSE is chosen by ?stream=sse or an Accept naming text/event-stream,
 * and a reconnecting EventSource resumes from its Last-Event-ID.
 */
export function parseFeedParams(query: URLSearchParams, accept: string | undefined, lastEventId: string | undefined): FeedParams {
  const single = validateQueryParams(query, FEED_QUERY);
  const sse = single.stream === 'sse' || wantsEventStream(accept);
  const after = sse && lastEventId ? parsePosition('Last-Event-ID', lastEventId) : parsePosition('after', single.after);
  return {
    after,
    limit: count('limit', single.limit, DEFAULT_PAGE, 1, MAX_PAGE),
    waitSeconds: count('wait', single.wait, 0, 0, MAX_WAIT_SECONDS),
    sse,
    keepAliveSeconds: count('keepalive', single.keepalive, DEFAULT_KEEPALIVE_SECONDS, 1, 300),
  };
}

function wantsEventStream(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((part) => {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return type.trim() === 'text/event-stream' && (!q || Number(q.slice(2)) > 0);
  });
}

export function parseAsOfParam(text: string): AsOf {
  const asOf = parseAsOf(text);
  if (!asOf) throw badValue(`Invalid as_of: '${text}' is neither a log position token nor an RFC 3339 time`);
  return asOf;
}

export function parseAsOfQuery(query: URLSearchParams): AsOf {
  return parseAsOfParam(validateQueryParams(query, AS_OF_QUERY).as_of);
}

export interface StaleParams {
  readonly olderThan: string;
  readonly interval: string;
  readonly limit: number;
}

export function parseStaleParams(query: URLSearchParams): StaleParams {
  const single = validateQueryParams(query, STALE_CONSUMERS_QUERY);
  const interval = parseAge(single.older_than);
  if (!interval) throw badValue(`Invalid older_than: '${single.older_than}' is neither seconds nor an ISO 8601 duration`);
  return { olderThan: single.older_than, interval, limit: count('limit', single.limit, MAX_PAGE, 1, 10 * MAX_PAGE) };
}
