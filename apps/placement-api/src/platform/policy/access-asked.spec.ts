import Fastify, { FastifyInstance } from 'fastify';
import { requestState } from '../request-state.js';
import { Access } from './access.js';
import { refuseUnjudged } from './access-asked.js';

/** A server whose routes are judged against their data as the policy guard would set them up. */
function serverWith(judged: boolean, handler: (access: Access | undefined) => unknown): FastifyInstance {
  const server = Fastify();
  server.addHook('onSend', async (request, reply, payload) => refuseUnjudged(request, reply, payload));
  server.get('/ledger/events', async (request, reply) => {
    const access = judged ? new Access('placement:ledger:events', () => false, 'A') : undefined;
    if (access) requestState(request).access = access;
    const answer = handler(access);
    if (Buffer.isBuffer(answer)) reply.header('content-length', answer.length).type('application/json');
    return answer;
  });
  server.get('/ledger/refused', async (request, reply) => {
    requestState(request).access = new Access('placement:ledger:events', () => false, 'A');
    return reply.code(404).send({ errors: [{ status: 404 }] });
  });
  return server;
}

const answer = { events: ['of every project'] };

describe('answers of routes judged against their data', () => {
  it('refuses the answer of a handler that never asked whether the caller may see it, in upstream\'s error shape', async () => {
    const server = serverWith(true, () => answer);
    const reply = await server.inject({ method: 'GET', url: '/ledger/events' });
    expect(reply.statusCode).toBe(403);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(reply.body)).toEqual({
      errors: [expect.objectContaining({ status: 403, title: 'Forbidden', detail: expect.stringContaining('Policy does not allow placement:ledger:events to be performed.') })],
    });
    expect(reply.body).not.toContain('of every project');
  });

  it('refuses a body the handler measured itself, with the error\'s own length', async () => {
    const server = serverWith(true, () => Buffer.from(JSON.stringify(answer)));
    const reply = await server.inject({ method: 'GET', url: '/ledger/events' });
    expect(reply.statusCode).toBe(403);
    expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.body));
  });

  it('lets through the answer of a handler that asked', async () => {
    const server = serverWith(true, (access) => ({ events: access!.filter(answer.events, () => null) }));
    const reply = await server.inject({ method: 'GET', url: '/ledger/events' });
    expect(reply.statusCode).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({ events: [] });
  });

  it('lets errors through: a handler may refuse before reading anything to judge', async () => {
    const reply = await serverWith(true, () => answer).inject({ method: 'GET', url: '/ledger/refused' });
    expect(reply.statusCode).toBe(404);
  });

  it('leaves routes judged against the caller alone', async () => {
    const reply = await serverWith(false, () => answer).inject({ method: 'GET', url: '/ledger/events' });
    expect(reply.statusCode).toBe(200);
    expect(JSON.parse(reply.body)).toEqual(answer);
  });
});
