import { DynamicModule, Inject, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { CandidateIndexService } from '#placement/candidates/candidate-index.service.js';
import { capacitySeries, indexedProviders, projectUsage } from '#placement/capacity-metrics/index.js';
import { AllocationCandidatesModule } from '../allocation-candidates/allocation-candidates.module.js';
import type { CapacityLabels } from '#platform/config.js';
import { registerCapacityGauges } from './capacity-gauges.js';
import { PlacementMetrics } from './metrics.js';

const LABELS = Symbol('CAPACITY_LABELS');

/** Feeds the capacity gauges from the candidate index, caught up with the log first. */
@Injectable()
class CapacityMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: PlacementMetrics,
    private readonly candidates: CandidateIndexService,
    @Inject(LABELS) private readonly labels: CapacityLabels,
  ) {}

  onModuleInit(): void {
    registerCapacityGauges(this.metrics.registry, this.labels, async () => {
      // current() reads only the log's tail, so a scrape shows every write acknowledged before it.
      const { index, projects } = await this.candidates.current();
      return { capacity: capacitySeries(indexedProviders(index), this.labels.byAggregate), projects: this.labels.projectUsage ? projectUsage(projects) : [] };
    });
  }
}

/** The capacity series of GET /metrics (placement_inventory_*, and placement_project_usage when asked). */
@Module({})
export class CapacityMetricsModule {
  static forApp(labels: CapacityLabels): DynamicModule {
    return {
      module: CapacityMetricsModule,
      imports: [AllocationCandidatesModule],
      providers: [CapacityMetrics, { provide: LABELS, useValue: labels }],
    };
  }
}
