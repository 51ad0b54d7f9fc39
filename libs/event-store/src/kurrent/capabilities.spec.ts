import { AccessDeniedError, UnavailableError, UnsupportedError } from '@kurrent/kurrentdb-client';
import { KurrentCapabilityError, assertMultiStreamAppend } from './capabilities.js';

/** A client whose empty append session ends as the given outcome. */
const answering = (outcome: () => Promise<never> | Promise<{ position: bigint; responses: [] }>) => {
  const calls: unknown[][] = [];
  return { calls, multiStreamAppend: (requests: unknown[]) => { calls.push(requests); return outcome(); } };
};
const url = 'kurrentdb://admin:changeit@kdb.example:2113?tls=false';

describe('KurrentDB capability check', () => {
  it('refuses a server older than 25.1 with a message an operator can act on', async () => {
    const client = answering(() => Promise.reject(new UnsupportedError('multiStreamAppend', '25.1')));
    const check = assertMultiStreamAppend(client, { url });
    await expect(check).rejects.toBeInstanceOf(KurrentCapabilityError);
    await expect(check).rejects.toThrow(
      'KurrentDB at kurrentdb://admin:***@kdb.example:2113?tls=false has no atomic multi-stream append (it needs KurrentDB 25.1 or later): ' +
      'a claim writes to several streams at once and must stay atomic, so the service refuses to start rather than write claims ' +
      'stream by stream. Upgrade the server to KurrentDB 25.1 or later.',
    );
  });

  it('treats a server that does not implement the call (gRPC UNIMPLEMENTED) as too old', async () => {
    const unimplemented = Object.assign(new Error('12 UNIMPLEMENTED: Method not found'), { code: 12 });
    await expect(assertMultiStreamAppend(answering(() => Promise.reject(unimplemented)), { url })).rejects.toThrow(/needs KurrentDB 25\.1 or later/);
  });

  it('passes when the server runs the session: it refuses an empty one, or accepts it', async () => {
    const refused = Object.assign(new Error('3 INVALID_ARGUMENT: no append requests'), { code: 3 });
    const client = answering(() => Promise.reject(refused));
    await expect(assertMultiStreamAppend(client, { url })).resolves.toBeUndefined();
    expect(client.calls).toEqual([[]]);
    await expect(assertMultiStreamAppend(answering(() => Promise.resolve({ position: 0n, responses: [] })), { url })).resolves.toBeUndefined();
  });

  it('says when the server cannot be reached, without the password', async () => {
    const refused = Object.assign(new Error('14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED'), { code: 14 });
    await expect(assertMultiStreamAppend(answering(() => Promise.reject(refused)), { url })).rejects.toThrow(
      'cannot reach KurrentDB at kurrentdb://admin:***@kdb.example:2113?tls=false: 14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED',
    );
    await expect(assertMultiStreamAppend(answering(() => Promise.reject(new UnavailableError())), { url })).rejects.toThrow(/^cannot reach KurrentDB/);
  });

  it('says when the server refuses the credentials', async () => {
    await expect(assertMultiStreamAppend(answering(() => Promise.reject(new AccessDeniedError())), { url })).rejects.toThrow(/refused the connection's credentials/);
  });

  it('gives up on a server that does not answer', async () => {
    const silent = answering(() => new Promise<never>(() => undefined));
    await expect(assertMultiStreamAppend(silent, { url: 'kurrentdb://10.9.9.9:2113', timeoutMs: 30 })).rejects.toThrow(
      'KurrentDB at kurrentdb://10.9.9.9:2113 did not answer within 0.03 s',
    );
  });
});
