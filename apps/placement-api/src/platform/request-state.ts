import type { FastifyRequest } from 'fastify';
import type { Caller } from '#placement/shared/caller.js';
import { Version } from './microversion.js';

/** What the pipeline learns about a request before a controller sees it. */
export interface RequestState {
  requestId: string;
  version?: Version;
  caller?: Caller;
  systemScope?: boolean;
  /** A domain-scoped Keystone token's domain: its scope is then neither system nor project. */
  domainId?: string | null;
}

const STATE = Symbol('placement');

export function requestState(request: FastifyRequest): RequestState {
  const holder = request as unknown as { [STATE]?: RequestState };
  return (holder[STATE] ??= { requestId: '' });
}
