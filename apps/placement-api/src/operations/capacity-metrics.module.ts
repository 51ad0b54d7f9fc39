import { DynamicModule, Inject, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { CandidateIndexService } from '#placement/candidates/candidate-index.service.js';
import { capacitySeries, indexedProviders, projectUsage } from '#placement/capacity-metrics/index.js';
import { AllocationCandidatesModule } from '../allocation-candidates/allocation-candidates.module.js';
import { registerCapacityGauges } from './capacity-gauges.js';
import { PlacementMetrics } from './metrics.js';

const BY_AGGREGATE = Symbol('METRICS_BY_AGGREGATE');

/** Feeds the capacity gauges from the candidate index, caught up with the log first. */
@Injectable()
class CapacityMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: PlacementMetrics,
    private readonly candidates: CandidateIndexService,
    @Inject(BY_AGGREGATE) private readonly byAggregate: boolean,
  ) {}

  onModuleInit(): void {
    registerCapacityGauges(this.metrics.registry, this.byAggregate, async () => {
      // current() reads only the log's tail, so a scrape shows every write acknowledged before it.
      const { index, projects } = await this.candidates.current();
      return { capacity: capacitySeries(indexedProviders(index), this.byAggregate), projects: projectUsage(projects) };
    });
  }
}

/** The capacity series of GET /metrics (placement_inventory_*, placement_project_usage). */
@Module({})
export class CapacityMetricsModule {
  static forApp(byAggregate: boolean): DynamicModule {
    return {
      module: CapacityMetricsModule,
      imports: [AllocationCandidatesModule],
      providers: [CapacityMetrics, { provide: BY_AGGREGATE, useValue: byAggregate }],
    };
  }
}
