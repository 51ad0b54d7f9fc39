import { connect } from 'node:net';

/**
 * A status and body, whichever client read them (http.ts re-exports it). The body is decoded
 * when first asked: a storm's scheduler reads its large answers' bytes where they lie
 * (storm/json-scan.ts), and decoding them would cost it more than its reading.
 */
export class HttpReply {
  private text?: string;
  /** When a one-shot request went and came back (oneShot sets it): storm --trace joins it to the server's own times. */
  times?: ClientTimes;

  constructor(readonly status: number, readonly bytes: Buffer) {}

  get body(): string {
    return this.text ??= this.bytes.toString('utf8');
  }
}

/**
 * A one-shot request's moments on the monotonic clock every process of the host shares
 * (process.hrtime), in milliseconds: asked (as the connection was opened), connected (the client's event
 * loop saw it open and wrote the request), its answer's first bytes read and its last. `port`:
 * the client's end of the connection, by which the server's times of it are found.
 */
export interface ClientTimes {
  readonly port: number;
  readonly asked: number;
  readonly connected: number;
  readonly firstRead: number;
  readonly lastRead: number;
}

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

const HEADERS_END = Buffer.from('\r\n\r\n');
const LAST_CHUNK = Buffer.from('0\r\n\r\n');
/** Upstream's slowest answers in the benches take a few seconds (nested-1000 unlimited under load). */
export const IDLE_MS = 60_000;

/** A chunked body (RFC 9112 7.1) decoded, or null while it is not whole; trailers are not expected. */
function unchunk(raw: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(raw.toString('latin1', at, lineEnd).split(';')[0], 16);
    if (!Number.isFinite(size)) throw new Error('a chunked body has a malformed chunk size');
    if (size === 0) return Buffer.concat(parts);
    if (lineEnd + 2 + size + 2 > raw.length) return null;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

interface Head {
  readonly status: number;
  /** Where the body begins in the response's bytes. */
  readonly bodyAt: number;
  readonly length: number | null;
  readonly chunked: boolean;
}

function parseHead(raw: Buffer): Head | null {
  const headEnd = raw.indexOf(HEADERS_END);
  if (headEnd < 0) return null;
  const lines = raw.toString('latin1', 0, headEnd).split('\r\n');
  const status = Number(lines[0].split(' ')[1]);
  let length: number | null = status === 204 || status === 304 ? 0 : null;
  let chunked = false;
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') length = Number(value);
    else if (name === 'transfer-encoding' && value.toLowerCase().includes('chunked')) chunked = true;
  }
  return { status, bodyAt: headEnd + HEADERS_END.length, length, chunked };
}

/**
 * The response in `raw` if it is whole: its length is known (content-length, or a chunked body's
 * last chunk) and reached, or the server closed the connection (`closed`), which ends a body of
 * no stated length and makes anything shorter than stated an error. `head`: the head already
 * parsed from these bytes, if it was.
 */
export function completeResponse(raw: Buffer, closed: boolean, head = parseHead(raw)): HttpReply | null {
  if (!head) {
    if (closed) throw new Error(`the connection closed before the response's headers ended (${raw.length} bytes)`);
    return null;
  }
  const rest = raw.subarray(head.bodyAt);
  let body: Buffer | null;
  if (head.chunked) body = unchunk(rest);
  else if (head.length !== null) body = rest.length >= head.length ? rest.subarray(0, head.length) : null;
  else body = closed ? rest : null;
  if (body === null && closed) {
    throw new Error(head.chunked ? 'the connection closed inside a chunked body' : `the response's body ended at ${rest.length} of ${head.length} bytes`);
  }
  return body === null ? null : new HttpReply(head.status, body);
}

/**
 * Where every connection's reads land, to be copied out at once: the reads are handled one at a
 * time, on the one event loop. A buffer of its own for each read, and then the answer joined from
 * them, made each answer of the storm's hundreds of kilobytes twice over outside V8's heap, where
 * memory is given back only once a collection finds it dead: the load generator's full
 * collections followed the answers it read (docs/performance.md, "Boot storm").
 */
const READS = Buffer.allocUnsafeSlow(64 * 1024);

/**
 * An answer's bytes as they come: copied into one buffer of the answer's size once its head tells
 * it. One given to a request again holds its answer in the same memory, where it is big enough:
 * the reply of the request before is then gone.
 */
export class AnswerBytes {
  private bytes = Buffer.allocUnsafe(0);
  length = 0;

  reset(): void {
    this.length = 0;
  }

  add(chunk: Buffer): void {
    if (this.length + chunk.length > this.bytes.length) this.grow(Math.max(this.length + chunk.length, 2 * this.bytes.length));
    chunk.copy(this.bytes, this.length);
    this.length += chunk.length;
  }

  /** The answer's whole size, once known. */
  expect(size: number): void {
    if (size > this.bytes.length) this.grow(size);
  }

  whole(): Buffer {
    return this.bytes.subarray(0, this.length);
  }

  private grow(size: number): void {
    const bytes = Buffer.allocUnsafeSlow(size);
    this.bytes.copy(bytes, 0, 0, this.length);
    this.bytes = bytes;
  }
}

/**
 * One request on a connection of its own, as ApacheBench without keep-alive makes them
 * (upstream's gate): the request written whole at once, the answer read until its stated length,
 * and the connection closed by us (uWSGI would hold it open for seconds). Node's http client,
 * with its request and response objects and streams, costs the load generator about as much CPU
 * as a small answer costs our server, and on a 2-core machine that CPU is taken from the servers
 * measured; this one costs a fraction of it.
 */
export function oneShot(url: URL, method: string, headers: Record<string, string>, payload?: string, answer = new AnswerBytes()): Promise<HttpReply> {
  const path = url.pathname + url.search;
  let text = `${method} ${path} HTTP/1.1\r\nhost: ${url.host}\r\nconnection: close\r\n`;
  for (const [name, value] of Object.entries(headers)) text += `${name}: ${value}\r\n`;
  if (payload !== undefined) text += `content-length: ${Buffer.byteLength(payload)}\r\n`;
  text += `\r\n${payload ?? ''}`;
  answer.reset();
  return new Promise((resolve, reject) => {
    let head: Head | null = null;
    let tail = Buffer.alloc(0);
    const asked = nowMs();
    let port = 0, connected = 0, firstRead = 0;
    const settle = (closed: boolean) => {
      try {
        const reply = completeResponse(answer.whole(), closed, head ?? undefined);
        if (!reply) return;
        reply.times = { port, asked, connected, firstRead, lastRead: nowMs() };
        socket.destroy();
        resolve(reply);
      } catch (error) {
        socket.destroy();
        reject(error);
      }
    };
    const read = (chunk: Buffer) => {
      if (answer.length === 0) firstRead = nowMs();
      answer.add(chunk);
      // Once the head tells the body's size, the rest is copied into memory of that size.
      if (!head) {
        head = parseHead(answer.whole());
        if (!head) return;
        if (!head.chunked && head.length !== null) answer.expect(head.bodyAt + head.length);
      }
      if (head.chunked) {
        tail = Buffer.concat([tail, chunk]).subarray(-LAST_CHUNK.length);
        if (tail.equals(LAST_CHUNK)) settle(false);
      } else if (head.length !== null && answer.length - head.bodyAt >= head.length) {
        settle(false);
      }
    };
    const socket = connect({
      host: url.hostname, port: Number(url.port || 80), noDelay: true,
      onread: {
        buffer: READS,
        callback: (length: number, reads: Uint8Array) => {
          read(Buffer.from(reads.buffer, reads.byteOffset, length));
          return true;
        },
      },
    });
    socket.once('connect', () => {
      connected = nowMs();
      port = socket.localPort ?? 0;
    });
    socket.on('error', reject);
    socket.on('end', () => settle(true));
    // A server that stops answering fails the bench with what it sent, rather than hanging it.
    socket.setTimeout(IDLE_MS, () => {
      socket.destroy();
      const sent = answer.whole().toString('latin1', 0, 300);
      reject(new Error(`${method} ${path}: nothing for ${IDLE_MS / 1000} s after ${answer.length} bytes of the answer${answer.length > 0 ? `: ${sent}` : ''}`));
    });
    socket.write(text);
  });
}
