import { connect } from 'node:net';

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
  readonly json: any;
}

/**
 * Sends bytes exactly as given on one connection and reads every answer until the server closes
 * it or `waitMs` passes: what fetch cannot send (invalid UTF-8, stray bytes, broken heads).
 */
export function rawExchange(url: string, bytes: Buffer | string, waitMs = 3000): Promise<{ answers: RawAnswer[]; closed: boolean; error?: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let error: string | undefined;
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      done({ answers: parseAnswers(Buffer.concat(chunks)), closed, error });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => { error = e.code; });
    socket.on('close', () => { closed = true; finish(); });
    socket.write(bytes);
  });
}

/** Splits a byte stream of HTTP/1.1 answers (each with a content-length) into answers. */
export function parseAnswers(data: Buffer): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let at = 0;
  while (at < data.length) {
    const headEnd = data.indexOf('\r\n\r\n', at);
    if (headEnd < 0) break;
    const [statusLine, ...lines] = data.subarray(at, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const text = data.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
    let json: unknown;
    try { json = JSON.parse(text); } catch { json = undefined; }
    answers.push({ status: Number(statusLine.split(' ')[1]), headers, text, json });
    at = headEnd + 4 + length;
  }
  return answers;
}

/** One request's bytes; the body is sent as given, with its true length unless `length` says otherwise. */
export function requestBytes(method: string, path: string, body?: Buffer | string, headers: Record<string, string> = {}): Buffer {
  const payload = body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(body);
  const all: Record<string, string> = {
    // The server then closes the connection after its answer: no waiting for a time-out.
    host: 'placement', connection: 'close', 'x-auth-token': 'admin', 'openstack-api-version': 'placement latest',
    ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(payload.length) }),
    ...headers,
  };
  const head = `${method} ${path} HTTP/1.1\r\n${Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), payload]);
}

/** Upstream's error shape: one error with status, title, detail, request_id (and code from 1.23). */
export function isUpstreamError(answer: RawAnswer, withCode = false): boolean {
  const errors = answer.json?.errors;
  if (!Array.isArray(errors) || errors.length !== 1) return false;
  const [error] = errors;
  return error.status === answer.status && typeof error.title === 'string' && typeof error.detail === 'string'
    && typeof error.request_id === 'string' && (!withCode || typeof error.code === 'string');
}
