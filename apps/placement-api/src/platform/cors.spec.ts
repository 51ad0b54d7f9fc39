import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CorsConfig } from '#platform/config.js';
import { handleCors } from './cors.js';

/** Just what handleCors touches of Fastify's request and reply. */
function exchange(config: CorsConfig, method: string, headers: Record<string, string>) {
  const sent: Record<string, string> = {};
  let status: number | undefined;
  const reply = {
    header(name: string, value: string) { sent[name] = value; return reply; },
    code(value: number) { status = value; return reply; },
    send() { return reply; },
  };
  const answered = handleCors(config, { method, headers } as unknown as FastifyRequest, reply as unknown as FastifyReply);
  return { answered, status, sent };
}

const CONFIG: CorsConfig = {
  allowedOrigins: ['http://dash'], allowHeaders: ['X-Auth-Token'], exposeHeaders: ['X-Openstack-Request-Id', 'OpenStack-API-Version'], maxAge: 3600,
};

describe('handleCors: oslo.middleware CORS', () => {
  it('answers an allowed pre-flight with the headers asked and max_age', () => {
    const { answered, status, sent } = exchange(CONFIG, 'OPTIONS', {
      origin: 'http://dash', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'X-Auth-Token',
    });
    expect(answered).toBe(true);
    expect(status).toBe(200);
    expect(sent).toMatchObject({
      'access-control-allow-origin': 'http://dash', 'access-control-allow-methods': 'PUT',
      'access-control-allow-headers': 'x-auth-token', 'access-control-max-age': '3600',
    });
  });

  it('exposes the configured headers on an actual request from an allowed origin only', () => {
    expect(exchange(CONFIG, 'GET', { origin: 'http://dash' }).sent['access-control-expose-headers']).toBe('X-Openstack-Request-Id,OpenStack-API-Version');
    expect(exchange(CONFIG, 'GET', { origin: 'http://evil' }).sent).toEqual({});
  });

  it('sends neither header when they are not configured', () => {
    const plain: CorsConfig = { allowedOrigins: ['*'], allowHeaders: [] };
    expect(exchange(plain, 'GET', { origin: 'http://any' }).sent['access-control-expose-headers']).toBeUndefined();
    expect(exchange(plain, 'OPTIONS', { origin: 'http://any', 'access-control-request-method': 'GET' }).sent['access-control-max-age']).toBeUndefined();
  });
});
