import { DynamicModule, Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { PlacementMetrics } from './metrics.js';
import { OpenApiController } from './openapi/openapi.controller.js';
import { Operations } from './operations.js';
import { ReadinessProbe } from './readiness.js';

/**
 * Health, readiness, metrics and the OpenAPI document. Global so any handler can inject
 * PlacementMetrics (e.g. to record allocation candidates queries).
 */
@Module({})
export class OperationsModule {
  static forApp(operations: Operations): DynamicModule {
    return {
      module: OperationsModule,
      global: true,
      controllers: [HealthController, OpenApiController],
      providers: [
        { provide: Operations, useValue: operations },
        { provide: PlacementMetrics, useValue: operations.metrics },
        ReadinessProbe,
      ],
      exports: [Operations, PlacementMetrics],
    };
  }
}
