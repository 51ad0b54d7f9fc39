import type { FastifyReply } from 'fastify';

/** keystonemiddleware's 401, which is not in placement's error shape (errors.inc says so). */
export function sendUnauthorized(reply: FastifyReply): FastifyReply {
  return reply.code(401).header('www-authenticate', "Keystone uri='http://localhost/identity'").type('application/json').send(JSON.stringify({
    message: 'This server could not verify that you are authorized to access the document you requested. Either you supplied the wrong credentials (e.g., bad password), or your browser does not understand how to supply the credentials required.',
    code: '401 Unauthorized',
    title: 'Unauthorized',
  }));
}
