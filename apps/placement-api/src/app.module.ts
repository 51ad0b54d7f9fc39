import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { Database } from '#placement/index.js';
import { PlacementModule } from '#placement/placement.module.js';
import { AppConfig } from '#platform/config.js';
import { ApiRouteGuard } from './platform/api-route.js';
import { PlacementExceptionFilter } from './platform/exception.filter.js';
import { PolicyGuard } from './platform/policy/policy.guard.js';
import { RouteTable } from './platform/route-table.js';
import { ResourceProvidersModule } from './resource-providers/resource-providers.module.js';
import { InventoriesModule } from './inventories/inventories.module.js';
import { ResourceClassesModule } from './resource-classes/resource-classes.module.js';
import { TraitsModule } from './traits/traits.module.js';
import { AggregatesModule } from './aggregates/aggregates.module.js';
import { UsagesModule } from './usages/usages.module.js';
import { AllocationsModule } from './allocations/allocations.module.js';
import { AllocationCandidatesModule } from './allocation-candidates/allocation-candidates.module.js';
import { LedgerModule } from './ledger/ledger.module.js';
import { LedgerExplainModule } from './ledger-explain/ledger-explain.module.js';
import { UsageOverTimeModule } from './usage-over-time/usage-over-time.module.js';
import { ConsoleModule } from './console/console.module.js';
import { RootController } from './root/root.controller.js';
import { Operations } from './operations/operations.js';
import { OperationsModule } from './operations/operations.module.js';
import { CapacityMetricsModule } from './operations/capacity-metrics.module.js';

const APP_CONFIG = Symbol('APP_CONFIG');

/** One controller per resource family; the platform's guard and filter apply to all. */
@Module({})
export class AppModule {
  static create(config: AppConfig, database: Database, routes: RouteTable, operations: Operations): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlacementModule.forDatabase(database),
        OperationsModule.forApp(operations),
        ResourceProvidersModule, InventoriesModule, ResourceClassesModule, TraitsModule, AggregatesModule,
        UsagesModule, AllocationsModule.withSettings(config.allocations),
        LedgerModule.forApp(config.feed),
        LedgerExplainModule,
        UsageOverTimeModule,
        ConsoleModule,
        AllocationCandidatesModule,
        CapacityMetricsModule.forApp(config.metrics),
      ],
      controllers: [RootController],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: RouteTable, useValue: routes },
        { provide: APP_GUARD, useClass: ApiRouteGuard },
        { provide: APP_GUARD, useValue: new PolicyGuard(config.policy) },
        { provide: APP_FILTER, useClass: PlacementExceptionFilter },
      ],
    };
  }
}
