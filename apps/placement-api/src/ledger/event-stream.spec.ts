import { PassThrough } from 'node:stream';
import type { ServerResponse } from 'node:http';
import { EventStreamResponse, sseComment, sseMessage } from './event-stream.js';

const event = {
  position: 'MTIzLjQ1', stream: 'provider-p', revision: 0, time: '2024-03-01T10:00:00.000001Z', type: 'ResourceProviderCreated',
  data: { name: 'a\nb' }, generation: 0, request_id: 'req-1', user_id: 'admin', project_id: 'admin', roles: ['admin'],
};

/** A writable standing in for the ServerResponse, recording what the client would read. */
function fakeResponse() {
  const sink = new PassThrough();
  const chunks: string[] = [];
  sink.on('data', (chunk) => chunks.push(String(chunk)));
  let head: [number, Record<string, unknown>] | undefined;
  const raw = Object.assign(sink, { writeHead: (status: number, headers: Record<string, unknown>) => { head = [status, headers]; } });
  return { raw: raw as unknown as ServerResponse, chunks, head: () => head };
}

describe('server-sent events', () => {
  it('carry each event as one data line, with its position as the id', () => {
    const text = sseMessage(event);
    expect(text).toBe(`id: MTIzLjQ1\ndata: ${JSON.stringify(event)}\n\n`);
    expect(text.split('\n').filter((line) => line.startsWith('data:'))).toHaveLength(1);
  });

  it('keep comments on one line', () => {
    expect(sseComment('keep-alive')).toBe(': keep-alive\n\n');
    expect(sseComment('a\r\nb')).toBe(': a b\n\n');
  });

  it('open with the stream headers and a retry hint, write in order, and stop writing once ended', async () => {
    const { raw, chunks, head } = fakeResponse();
    const stream = new EventStreamResponse(raw);
    stream.open({ 'x-openstack-request-id': 'req-9' });
    expect(head()).toEqual([200, expect.objectContaining({ 'content-type': 'text/event-stream; charset=utf-8', 'x-openstack-request-id': 'req-9' })]);
    await stream.write(sseMessage(event));
    stream.end();
    expect(stream.isClosed).toBe(true);
    await stream.write(sseComment('late'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(chunks.join('')).toBe(`retry: 2000\n: connected\n\n${sseMessage(event)}`);
  });
});
