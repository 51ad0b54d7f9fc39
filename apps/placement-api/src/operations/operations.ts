import type { Logger } from '#platform/logger.js';
import { PlacementMetrics } from './metrics.js';

/**
 * What running the service in production needs, per application instance: its logger, its
 * metrics, and whether it is shutting down (readiness says no, replies close their connection).
 */
export class Operations {
  readonly metrics: PlacementMetrics;
  private drainingStarted = false;

  constructor(readonly logger: Logger, projections: readonly string[]) {
    this.metrics = new PlacementMetrics(projections);
  }

  get draining(): boolean {
    return this.drainingStarted;
  }

  startDraining(): void {
    this.drainingStarted = true;
  }
}
