import { positionToken, revisionMarker } from '#placement/ledger/index.js';
import { PlacementError } from '../platform/placement-error.js';
import { parseAsOfQuery, parseFeedParams, parseHistoryParams, parseStaleParams } from './ledger-params.js';

const q = (text: string) => new URLSearchParams(text);
const refusal = (parse: () => unknown): PlacementError => {
  try {
    parse();
  } catch (error) {
    return error as PlacementError;
  }
  throw new Error('accepted');
};

describe('ledger query parameters', () => {
  it('page a history oldest first by 100 unless told', () => {
    expect(parseHistoryParams(q(''))).toEqual({ order: 'asc', limit: 100, afterRevision: undefined });
    expect(parseHistoryParams(q(`order=desc&limit=5&marker=${revisionMarker(7)}`))).toEqual({ order: 'desc', limit: 5, afterRevision: 7 });
  });

  it('refuse a history page out of range or a foreign marker, as a bad value', () => {
    expect(refusal(() => parseHistoryParams(q('limit=1001')))).toMatchObject({ status: 400, code: 'placement.query.bad_value' });
    expect(refusal(() => parseHistoryParams(q(`marker=${positionToken({ commit: 1n, prepare: 1n })}`))).detail).toContain('Invalid marker');
    expect(refusal(() => parseHistoryParams(q('limit=-1'))).detail).toContain('Invalid query string parameters');
  });

  it('read the feed from the start, or from a position; SSE by ?stream=sse or by Accept', () => {
    const token = positionToken({ commit: 42n, prepare: 9n });
    expect(parseFeedParams(q(''), undefined, undefined)).toEqual({
      after: { commit: 0n, prepare: 0n }, limit: 100, waitSeconds: 0, sse: false, keepAliveSeconds: 15,
    });
    expect(parseFeedParams(q(`after=${token}&wait=30&limit=7`), 'application/json', undefined))
      .toMatchObject({ after: { commit: 42n, prepare: 9n }, waitSeconds: 30, limit: 7, sse: false });
    expect(parseFeedParams(q('stream=sse'), undefined, undefined).sse).toBe(true);
    expect(parseFeedParams(q(''), 'text/html, text/event-stream;q=0.5', undefined).sse).toBe(true);
    expect(parseFeedParams(q(''), 'text/event-stream;q=0', undefined).sse).toBe(false);
  });

  it('resume a stream from Last-Event-ID over ?after, and only a stream', () => {
    const seen = positionToken({ commit: 50n, prepare: 3n });
    const after = positionToken({ commit: 1n, prepare: 1n });
    expect(parseFeedParams(q(`after=${after}`), 'text/event-stream', seen).after).toEqual({ commit: 50n, prepare: 3n });
    expect(parseFeedParams(q(`after=${after}`), 'application/json', seen).after).toEqual({ commit: 1n, prepare: 1n });
    expect(refusal(() => parseFeedParams(q('stream=sse'), undefined, 'garbage')).detail).toContain('Last-Event-ID');
  });

  it('require as_of, and refuse one that is neither position nor time', () => {
    expect(parseAsOfQuery(q('as_of=2024-03-01T10:00:00Z'))).toEqual({ kind: 'time', time: '2024-03-01T10:00:00+00:00' });
    expect(refusal(() => parseAsOfQuery(q(''))).detail).toContain("'as_of' is a required property");
    expect(refusal(() => parseAsOfQuery(q('as_of=soon')))).toMatchObject({ status: 400, code: 'placement.query.bad_value' });
  });

  it('read an age for stale consumers, with a limit', () => {
    expect(parseStaleParams(q('older_than=P7D'))).toEqual({ olderThan: 'P7D', interval: '7 days', limit: 1000 });
    expect(parseStaleParams(q('older_than=60&limit=3')).limit).toBe(3);
    expect(refusal(() => parseStaleParams(q('older_than=week'))).detail).toContain('Invalid older_than');
  });
});
