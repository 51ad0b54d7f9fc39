import type { FastifyReply, FastifyRequest } from 'fastify';
import { PlacementError } from './placement-error.js';
import { requestState } from './request-state.js';
import { STATUS_TEXT } from './status-text.js';

type Format = 'json' | 'html' | 'plain';

function quality(accept: string, matches: (type: string) => boolean): number {
  let best = 0;
  for (const part of accept.split(',')) {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    if (!matches(type.trim())) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    best = Math.max(best, q ? Number(q.slice(2)) || 0 : 1);
  }
  return best;
}

/** As webob picks: HTML only when asked for by name, JSON when acceptable at all, plain text otherwise. */
function formatFor(accept: string | undefined): Format {
  if (!accept || !accept.trim()) return 'json';
  const html = quality(accept, (t) => t === 'text/html');
  const json = quality(accept, (t) => t === 'application/json' || t === 'application/*' || t === '*/*');
  if (html > 0 && html >= json) return 'html';
  return json > 0 ? 'json' : 'plain';
}

/** The explanation line, with the parts webob fills in from the request. */
function explanation(status: number, request: FastifyRequest, error: PlacementError): string {
  const base = STATUS_TEXT[status]?.[1] ?? '';
  if (status === 405) return `The method ${request.method} is not allowed for this resource. \n\n ${base}`;
  if (status === 406) return `${base} (content of type ${request.headers.accept || 'application/json'}. \n\n ${error.detail}`;
  if (status === 415) {
    return `The request media type ${request.headers['content-type'] || 'None'} is not supported by this server. \n\n ${error.detail}`;
  }
  // webob folds the detail's own line breaks into spaces; only the explanation keeps its blank line.
  return `${base}\n\n ${error.detail.replace(/\n/g, ' ')}  `;
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: PlacementError): FastifyReply {
  return reply.send(errorBody(request, reply, error));
}

/**
 * The error's status, headers and media type set on the reply, and its body, in the format the
 * request accepts (upstream's shape for JSON): for a hook that replaces an answer with an error.
 */
export function errorBody(request: FastifyRequest, reply: FastifyReply, error: PlacementError): string {
  const state = requestState(request);
  const status = error.status;
  const title = STATUS_TEXT[status]?.[0] ?? 'Error';
  const detail = explanation(status, request, error);
  reply.code(status).headers(error.headers);
  const format = formatFor(request.headers.accept);
  if (format === 'html') {
    reply.type('text/html; charset=UTF-8');
    return `<html>\n <head>\n  <title>${status} ${title}</title>\n </head>\n <body>\n  <h1>${status} ${title}</h1>\n  ${detail.replace(/\n\n/g, '<br /><br />\n')}\n </body>\n</html>`;
  }
  if (format === 'plain') {
    reply.type('text/plain; charset=UTF-8');
    return `${status} ${title}\n\n${detail}`;
  }
  const entry: Record<string, unknown> = { status, title, detail };
  if (state.version?.matches('1.23')) entry.code = error.code;
  if (state.requestId) entry.request_id = state.requestId;
  Object.assign(entry, error.extra);
  reply.type('application/json');
  return JSON.stringify({ errors: [entry] });
}
