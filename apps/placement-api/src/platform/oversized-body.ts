import type { IncomingMessage } from 'node:http';
import { PlacementError } from './placement-error.js';

/** The largest body accepted: far above any upstream request (a reshaper of hundreds of providers). */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** How much of a refused body is still read, so the client sees the 413 and not a reset. */
const DISCARD_LIMIT_BYTES = 16 * BODY_LIMIT_BYTES;
const DISCARD_TIMEOUT_MS = 10_000;

export const bodyTooLarge = () => new PlacementError(413, `Request body is larger than ${BODY_LIMIT_BYTES} bytes`);

/**
 * Reads and drops the rest of a request body. Answering a 413 and closing while the client is
 * still sending makes the kernel reset the connection: Python clients then report a broken pipe
 * instead of the answer. Beyond DISCARD_LIMIT_BYTES (or a stalled sender) the connection is
 * closed anyway: a refused upload must not cost unbounded reading.
 */
export function discardBody(raw: IncomingMessage): Promise<void> {
  return new Promise((done) => {
    if (raw.readableEnded || raw.destroyed) return done();
    let received = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.removeListener('data', onData);
      done();
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > DISCARD_LIMIT_BYTES) finish();
    };
    const timer = setTimeout(finish, DISCARD_TIMEOUT_MS);
    raw.on('data', onData);
    raw.once('end', finish);
    raw.once('error', finish);
    raw.once('close', finish);
    raw.resume();
  });
}
