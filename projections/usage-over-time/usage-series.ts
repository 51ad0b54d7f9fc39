/** What one consumer holds of each resource class, whichever providers it is spread over. */
export type Holding = Readonly<Record<string, number>>;

/** Who a consumer's usage is charged to, as its last ConsumerAllocationsReplaced says. */
export interface Claimant {
  readonly projectId: string;
  readonly userId: string;
  /** null: written below 1.38 without a type. */
  readonly consumerType: string | null;
}

export interface Claim extends Claimant {
  readonly holding: Holding;
}

/**
 * A series' user or consumer type column holding this counts every user (type) of the
 * project. Neither can be a real value: upstream requires user ids of at least one character,
 * and consumer types match ^[A-Z0-9_]+$.
 */
export const EVERY = '';
/** Consumers without a type are counted, and asked for, as upstream's GET /usages names them. */
export const UNKNOWN_CONSUMER_TYPE = 'unknown';

/** One usage series: a project's (or one user's, or one consumer type's) units of one class. */
export interface SeriesKey {
  readonly projectId: string;
  readonly userId: string;
  readonly consumerType: string;
  readonly resourceClass: string;
}

export interface SeriesChange extends SeriesKey {
  readonly delta: number;
}

export function holdingOf(allocations: Readonly<Record<string, Readonly<Record<string, number>>>>): Holding {
  const holding: Record<string, number> = {};
  for (const resources of Object.values(allocations)) {
    for (const [rc, used] of Object.entries(resources)) holding[rc] = (holding[rc] ?? 0) + used;
  }
  return holding;
}

/**
 * The four series a consumer counts in. Peaks do not add up (the peak of a project is not the
 * sum of its users' peaks), so each way of asking is a series of its own.
 */
export function scopesOf(claimant: Claimant): readonly (readonly [userId: string, consumerType: string])[] {
  const type = claimant.consumerType ?? UNKNOWN_CONSUMER_TYPE;
  return [[EVERY, EVERY], [claimant.userId, EVERY], [EVERY, type], [claimant.userId, type]];
}

export const seriesId = (key: SeriesKey) => JSON.stringify([key.projectId, key.userId, key.consumerType, key.resourceClass]);

/**
 * How every series moves when a consumer goes from `before` to `after` (null: holds nothing,
 * or is gone). A consumer may change project, user or type with a claim, so the old holding
 * leaves the old series and the new one enters the new series. Sorted by series so every
 * writer locks rows in the same order; series that do not move are left out.
 */
export function seriesChanges(before: Claim | null, after: Claim | null): SeriesChange[] {
  const deltas = new Map<string, SeriesChange>();
  const add = (claim: Claim | null, sign: 1 | -1) => {
    if (!claim) return;
    for (const [userId, consumerType] of scopesOf(claim)) {
      for (const [resourceClass, used] of Object.entries(claim.holding)) {
        const key = { projectId: claim.projectId, userId, consumerType, resourceClass };
        const id = seriesId(key);
        deltas.set(id, { ...key, delta: (deltas.get(id)?.delta ?? 0) + sign * used });
      }
    }
  };
  add(before, -1);
  add(after, 1);
  return [...deltas.entries()]
    .filter(([, change]) => change.delta !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, change]) => change);
}
