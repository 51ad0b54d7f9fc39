import {
  AccessDeniedError, StreamTombstonedError, UnavailableError, WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import { WrongExpectedRevision } from '../port.js';
import { toAppendResult, toAppendStreamRequests, toExpectedState, translateAppendError } from './append-mapping.js';

describe('KurrentDB append mapping', () => {
  it('translates expected revisions: -1 is no_stream, n is BigInt(n), any is any', () => {
    expect(toExpectedState(-1)).toBe('no_stream');
    expect(toExpectedState(0)).toBe(0n);
    expect(toExpectedState(41)).toBe(41n);
    expect(toExpectedState('any')).toBe('any');
  });

  it('refuses what is not a revision', () => {
    expect(() => toExpectedState(-2)).toThrow(RangeError);
    expect(() => toExpectedState(1.5)).toThrow(RangeError);
  });

  it('builds one session request per stream, in order, with its events', () => {
    const session = toAppendStreamRequests([
      { stream: 'consumer-c', expectedRevision: -1, events: [{ type: 'AllocationsReplaced', data: { n: 1 } }] },
      { stream: 'provider-p', expectedRevision: 7, events: [{ type: 'Allocated', data: { n: 2 } }, { type: 'Allocated', data: { n: 3 } }] },
    ]);
    expect(session.map((r) => [r.streamName, r.expectedState, r.events.map((e) => e.data)])).toEqual([
      ['consumer-c', 'no_stream', [{ n: 1 }]],
      ['provider-p', 7n, [{ n: 2 }, { n: 3 }]],
    ]);
  });

  it('refuses a stream named twice (the server compares names without case)', () => {
    expect(() => toAppendStreamRequests([
      { stream: 'provider-A', expectedRevision: 'any', events: [] },
      { stream: 'provider-a', expectedRevision: 'any', events: [] },
    ])).toThrow('stream provider-a appears more than once in one KurrentDB append');
  });

  it('maps the session result: revisions by stream, the last event at {p, p}', () => {
    const result = toAppendResult({ position: 8123n, responses: [{ streamName: 'a', revision: 0n }, { streamName: 'b', revision: 12n }] });
    expect(result).toEqual({ position: { commit: 8123n, prepare: 8123n }, revisions: { a: 0, b: 12 } });
  });

  describe('errors', () => {
    const requests = [
      { stream: 'consumer-c', expectedRevision: 3, events: [] },
      { stream: 'provider-p', expectedRevision: -1, events: [] },
    ] as const;

    it('turns the server\'s revision conflict into WrongExpectedRevision for that stream', () => {
      const conflict = WrongExpectedVersionError.fromRevisionConflict({ stream: 'provider-p', expectedRevision: '-1', actualRevision: '4' });
      const translated = translateAppendError(conflict, requests);
      expect(translated).toBeInstanceOf(WrongExpectedRevision);
      expect(translated).toMatchObject({ stream: 'provider-p', expected: -1, message: 'stream provider-p is not at revision -1' });
    });

    it('finds the stream when the server spells it in another case', () => {
      const conflict = new WrongExpectedVersionError(undefined, { streamName: 'CONSUMER-C', expected: 3n, current: 5n });
      expect(translateAppendError(conflict, requests)).toMatchObject({ stream: 'consumer-c', expected: 3 });
    });

    it('recognizes the conflict by its type tag too', () => {
      const foreign = Object.assign(new Error('conflict'), { type: 'wrong-expected-version', streamName: 'consumer-c' });
      expect(translateAppendError(foreign, requests)).toBeInstanceOf(WrongExpectedRevision);
    });

    it('passes every other error through unchanged', () => {
      const others = [
        new StreamTombstonedError(undefined as never, { stream: 'provider-p' }),
        new AccessDeniedError(),
        new UnavailableError(),
        new Error('boom'),
      ];
      for (const error of others) expect(translateAppendError(error, requests)).toBe(error);
    });
  });
});
