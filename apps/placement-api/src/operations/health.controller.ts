import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { METRICS_PATH, HEALTH_PATH, READY_PATH } from './operations-paths.js';
import { ScrapeUnavailable } from './cluster-scrape.js';
import { PlacementMetrics } from './metrics.js';
import { ReadinessProbe } from './readiness.js';

/** Liveness, readiness and the Prometheus scrape; route-policies.ts maps them to no rule. */
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessProbe, private readonly metrics: PlacementMetrics) {}

  /** Alive: the event loop answers. Deliberately checks nothing else, so a database outage never gets the process restarted. */
  @Get(HEALTH_PATH)
  health() {
    return { status: 'ok' };
  }

  @Get(READY_PATH)
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const readiness = await this.readiness.check();
    if (readiness.ready) return { status: 'ready' };
    reply.status(503);
    return { status: 'not ready', reason: readiness.reason };
  }

  @Get(METRICS_PATH)
  async scrape(@Res({ passthrough: true }) reply: FastifyReply) {
    try {
      const text = await this.metrics.scrape.text();
      reply.header('content-type', this.metrics.scrape.contentType);
      return text;
    } catch (error) {
      if (!(error instanceof ScrapeUnavailable)) throw error;
      reply.status(503).header('content-type', 'text/plain; charset=utf-8');
      return `${error.message}\n`;
    }
  }
}
