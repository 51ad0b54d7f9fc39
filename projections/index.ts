import { providersProjection } from './providers/providers.projection.js';
import { resourceClassesProjection } from './resource-classes/resource-classes.projection.js';
import { traitsProjection } from './traits/traits.projection.js';
import { allocationsProjection } from './allocations/allocations.projection.js';
import { usageOverTimeProjection } from './usage-over-time/usage-over-time.projection.js';
import { Projection } from './runner/projection.js';
import { InitialReadModels1700000000000 } from './migrations/1700000000000-initial-read-models.js';
import { AllocationsReadModels1700000000001 } from './migrations/1700000000001-allocations-read-models.js';
import { ProjectionCheckpoints1700000000002 } from './migrations/1700000000002-projection-checkpoints.js';
import { UsageOverTime1700000000020 } from './migrations/1700000000020-usage-over-time.js';
import { UsageMoves1700000000021 } from './migrations/1700000000021-usage-moves.js';
import { UsageKeysBytewise1700000000022 } from './migrations/1700000000022-usage-keys-bytewise.js';
import { AllocationPositions1700000000030 } from './migrations/1700000000030-allocation-positions.js';
import { CandidateSnapshots1700000000031 } from './migrations/1700000000031-candidate-snapshots.js';
import { StreamSnapshots1700000000032 } from './migrations/1700000000032-stream-snapshots.js';
import { ProviderNameNotUnique1700000000040 } from './migrations/1700000000040-provider-name-not-unique.js';
import { UsageFoldFunction1700000000050 } from './migrations/1700000000050-usage-fold-function.js';
import { UsageFoldSameInstant1700000000051 } from './migrations/1700000000051-usage-fold-same-instant.js';
import { UsageFoldLatestInstant1700000000052 } from './migrations/1700000000052-usage-fold-latest-instant.js';

export * from './runner/projection.js';
export * from './runner/inline-projector.js';
export * from './runner/checkpoints.js';

export const ALL_PROJECTIONS: readonly Projection[] = [providersProjection, resourceClassesProjection, traitsProjection, allocationsProjection, usageOverTimeProjection];
export const MIGRATIONS = [InitialReadModels1700000000000, AllocationsReadModels1700000000001, ProjectionCheckpoints1700000000002, UsageOverTime1700000000020,
  UsageMoves1700000000021, UsageKeysBytewise1700000000022, AllocationPositions1700000000030, CandidateSnapshots1700000000031,
  StreamSnapshots1700000000032, ProviderNameNotUnique1700000000040, UsageFoldFunction1700000000050,
  UsageFoldSameInstant1700000000051, UsageFoldLatestInstant1700000000052];
