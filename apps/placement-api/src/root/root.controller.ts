import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { setLastModified } from '../platform/cache-headers.js';
import { MAX_VERSION, MIN_VERSION, Version } from '../platform/microversion.js';
import { Ver } from '../platform/request-params.js';

/** The version document: the one route that needs no token. */
@Controller()
export class RootController {
  @Get()
  home(@Ver() version: Version, @Res({ passthrough: true }) reply: FastifyReply) {
    setLastModified(reply, version, new Date());
    return {
      versions: [{
        id: `v${MIN_VERSION}`,
        max_version: MAX_VERSION.toString(),
        min_version: MIN_VERSION.toString(),
        status: 'CURRENT',
        links: [{ rel: 'self', href: '' }],
      }],
    };
  }
}
