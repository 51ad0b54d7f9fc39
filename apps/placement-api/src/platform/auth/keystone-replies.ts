import type { FastifyReply } from 'fastify';

/**
 * keystonemiddleware's rejection of a missing, invalid or expired token: its own JSON body
 * (not placement's error shape) and where to get a token.
 */
export function sendKeystoneUnauthorized(reply: FastifyReply, authUrl: string): FastifyReply {
  return reply.code(401).header('www-authenticate', `Keystone uri="${authUrl}"`).type('application/json').send(JSON.stringify({
    error: { code: 401, title: 'Unauthorized', message: 'The request you have made requires authentication.' },
  }));
}

/**
 * keystonemiddleware's webob.exc.HTTPServiceUnavailable, rendered as webob renders it for
 * JSON: the token could not be checked, which is no verdict on the token.
 */
export function sendKeystoneUnavailable(reply: FastifyReply): FastifyReply {
  return reply.code(503).type('application/json').send(JSON.stringify({
    message: 'The server is currently unavailable. Please try again at a later time.<br /><br />\nThe Keystone service is temporarily unavailable.\n\n',
    code: '503 Service Unavailable',
    title: 'Service Unavailable',
  }));
}
