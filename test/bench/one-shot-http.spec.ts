import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo, createServer as createTcpServer } from 'node:net';
import { AnswerBytes, completeResponse, HttpReply, oneShot } from './one-shot-http';

/** What a reply says, its body decoded, to compare with plain objects. */
const said = (reply: HttpReply | null) => reply && { status: reply.status, body: reply.body };

describe('a one-shot HTTP request', () => {
  let server: Server;
  let url: URL;
  const seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body });
        if (req.url === '/chunked') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"a":');
          res.end('"é"}');
        } else if (req.url?.startsWith('/large/')) {
          // Hundreds of kilobytes in writes of a few, so that they come in many reads.
          const text = JSON.stringify({ fill: req.url.slice('/large/'.length).repeat(100_000) });
          res.writeHead(200, { 'content-length': Buffer.byteLength(text) });
          for (let at = 0; at < text.length; at += 50_000) res.write(text.slice(at, at + 50_000));
          res.end();
        } else if (req.url?.startsWith('/conflict')) {
          const text = '{"errors":[{"status":409}]}';
          res.writeHead(409, { 'content-length': Buffer.byteLength(text) }).end(text);
        } else {
          res.writeHead(204).end();
        }
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });

  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('sends the method, path with query, headers and body, and asks the server to close', async () => {
    const reply = await oneShot(new URL('/conflict?x=1&y=2', url), 'PUT', { 'x-auth-token': 'admin' }, '{"b":"ü"}');
    expect(said(reply)).toEqual({ status: 409, body: '{"errors":[{"status":409}]}' });
    const request = seen.at(-1)!;
    expect(request).toMatchObject({ method: 'PUT', url: '/conflict?x=1&y=2', body: '{"b":"ü"}' });
    expect(request.headers).toMatchObject({ 'x-auth-token': 'admin', connection: 'close', 'content-length': '10' });
  });

  it('reads a chunked body and one with no body at all', async () => {
    expect(said(await oneShot(new URL('/chunked', url), 'GET', {}))).toEqual({ status: 200, body: '{"a":"é"}' });
    expect(said(await oneShot(new URL('/gone', url), 'DELETE', {}))).toEqual({ status: 204, body: '' });
  });

  it('reads large answers arriving at once whole, each its own, though every read lands in one buffer first', async () => {
    const replies = await Promise.all(['a', 'b', 'c', 'd'].map((fill) => oneShot(new URL(`/large/${fill}`, url), 'GET', {})));
    expect(replies.map((reply) => JSON.parse(reply.body).fill)).toEqual(['a', 'b', 'c', 'd'].map((fill) => fill.repeat(100_000)));
  });

  it('reads an answer into memory given again: the answer before is then gone', async () => {
    const into = new AnswerBytes();
    const large = await oneShot(new URL('/large/x', url), 'GET', {}, undefined, into);
    expect(JSON.parse(large.body).fill).toBe('x'.repeat(100_000));
    const small = await oneShot(new URL('/conflict', url), 'PUT', {}, '{}', into);
    expect(said(small)).toEqual({ status: 409, body: '{"errors":[{"status":409}]}' });
    expect(small.bytes.buffer).toBe(large.bytes.buffer);
  });

  it('fails on a connection closed before the answer is whole, rather than returning part of it', () => {
    expect(() => completeResponse(Buffer.from('HTTP/1.1 200 OK\r\ncontent-le'), true)).toThrow(/before the response's headers ended/);
    expect(() => completeResponse(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 9\r\n\r\n{"a"'), true)).toThrow(/ended at 4 of 9 bytes/);
    expect(() => completeResponse(Buffer.from('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{"a":'), true)).toThrow(/inside a chunked body/);
  });

  it('waits for a body still arriving, chunk data that looks like the last chunk included', () => {
    expect(completeResponse(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 9\r\n\r\n{"a"'), false)).toBeNull();
    // A first chunk of 7 bytes that ends as the last chunk would.
    const fakeEnd = 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n7\r\nab0\r\n\r\n';
    expect(completeResponse(Buffer.from(fakeEnd), false)).toBeNull();
    expect(said(completeResponse(Buffer.from(`${fakeEnd}\r\n2\r\ncd\r\n0\r\n\r\n`), false))).toEqual({ status: 200, body: 'ab0\r\n\r\ncd' });
  });

  it('ends at the stated length without waiting for a server that holds the connection open (uWSGI)', async () => {
    const holding = createTcpServer((socket) => socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}')));
    await new Promise<void>((done) => holding.listen(0, '127.0.0.1', done));
    const started = Date.now();
    try {
      expect(said(await oneShot(new URL(`http://127.0.0.1:${(holding.address() as AddressInfo).port}/`), 'GET', {}))).toEqual({ status: 200, body: '{}' });
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      await new Promise<void>((done) => holding.close(() => done()));
    }
  });

  it('fails when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    await expect(oneShot(new URL(`http://127.0.0.1:${port}/`), 'GET', {})).rejects.toThrow(/ECONNREFUSED/);
  });
});
